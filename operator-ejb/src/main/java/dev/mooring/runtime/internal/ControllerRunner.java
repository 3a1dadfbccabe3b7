package dev.mooring.runtime.internal;

import com.google.gson.JsonObject;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.api.TerminalException;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.api.queue.WorkQueue;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one controller: its informer feeds a work queue of object keys, and workers reconcile
 * the keys one at a time per key.
 *
 * <p>Startup resolves the kind, starts the informer and waits (up to the sync timeout) for the
 * initial list before any worker starts. Each pass ends in exactly one queue action: success
 * and {@link Result#requeueAfter} forget the key's failures (the latter adds it back after the
 * delay), a {@link TerminalException} forgets without retry, any other exception retries with
 * backoff. All threads come from the managed executor given to {@link #start}.
 */
public final class ControllerRunner<T extends KubernetesObject> implements InformerListener<T> {

    private static final Logger LOG = Logger.getLogger(ControllerRunner.class.getName());
    static final Duration SYNC_TIMEOUT = Duration.ofSeconds(30);
    static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);

    private final ControllerDefinition definition;
    private final Class<T> kind;
    private final Reconciler<T> reconciler;
    private final KubeHttp requests;
    private final KubeHttp watches;
    private final ResourceTypes types;
    private final ResourceClient client;
    private final Consumer<ControllerRunner<?>> onFailure;
    private final WorkQueue<ObjectKey> queue = new WorkQueue<>();

    private final AtomicReference<ControllerState> state = new AtomicReference<>(ControllerState.STARTING);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong successes = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong terminalErrors = new AtomicLong();
    private final List<Future<?>> tasks = new ArrayList<>();
    private volatile ExecutorService executor;
    private volatile Informer<T> informer;

    public ControllerRunner(ControllerDefinition definition, Class<T> kind, Reconciler<T> reconciler, KubeHttp requests,
            KubeHttp watches, ResourceTypes types, ResourceClient client, Consumer<ControllerRunner<?>> onFailure) {
        this.definition = definition;
        this.kind = kind;
        this.reconciler = reconciler;
        this.requests = requests;
        this.watches = watches;
        this.types = types;
        this.client = client;
        this.onFailure = onFailure;
    }

    public String name() {
        return definition.name();
    }

    /** Start on the given (managed) executor; returns at once. */
    public synchronized void start(ExecutorService executor) {
        this.executor = executor;
        long syncDeadline = System.nanoTime() + SYNC_TIMEOUT.toNanos();
        tasks.add(executor.submit(() -> runInformer(executor, syncDeadline)));
    }

    private void runInformer(ExecutorService executor, long syncDeadline) {
        try {
            ResourceType<T> type = resolveKind(syncDeadline);
            if (type == null) {
                return;
            }
            Informer<T> created = new Informer<>(requests, watches, type, definition.namespace(),
                    definition.labelSelector(), WorkQueue.DEFAULT_MAX_DELAY, this);
            informer = created;
            synchronized (this) {
                if (state.get() != ControllerState.STARTING) {
                    return;
                }
                tasks.add(executor.submit(() -> awaitSyncThenWork(created, syncDeadline)));
            }
            created.run();
        } catch (RuntimeException | Error e) {
            fail(e);
        }
    }

    /**
     * Discovery of the primary kind, retried with backoff on transient failures (no answer, 5xx,
     * 429) until the sync deadline; authorization failures and an unserved kind fail at once.
     * Returns null when stopped or timed out (the timeout is reported by the sync wait).
     */
    private ResourceType<T> resolveKind(long syncDeadline) {
        Duration backoff = Duration.ofMillis(500);
        while (state.get() == ControllerState.STARTING) {
            try {
                return types.resolve(kind);
            } catch (KubernetesException e) {
                if (!Informer.isTransient(e) || System.nanoTime() + backoff.toNanos() > syncDeadline) {
                    throw e;
                }
                LOG.log(Level.WARNING, "Discovery of {0} for controller {1} failed, retrying in {2} s: {3}",
                        new Object[] {kind.getSimpleName(), name(), backoff.toMillis() / 1000.0, e.getMessage()});
                try {
                    Thread.sleep(backoff.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return null;
                }
                backoff = backoff.multipliedBy(2);
            }
        }
        return null;
    }

    private void awaitSyncThenWork(Informer<T> started, long syncDeadline) {
        try {
            if (!started.awaitSynced(Duration.ofNanos(Math.max(0, syncDeadline - System.nanoTime())))) {
                if (state.get() == ControllerState.STARTING && started.failure().isEmpty()) {
                    fail(new IllegalStateException("The initial list of " + started.describe()
                            + " did not complete within " + SYNC_TIMEOUT.toSeconds() + " s"));
                }
                return;
            }
            synchronized (this) {
                if (!state.compareAndSet(ControllerState.STARTING, ControllerState.READY)) {
                    return;
                }
                for (int i = 0; i < definition.workers(); i++) {
                    tasks.add(executor.submit(this::work));
                }
            }
            LOG.info(() -> "Controller " + name() + " is ready: watching " + started.describe() + " with "
                    + definition.workers() + " worker(s)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void work() {
        try {
            for (Optional<ObjectKey> next = queue.get(); next.isPresent(); next = queue.get()) {
                ObjectKey key = next.get();
                try {
                    reconcile(key);
                } finally {
                    queue.done(key);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void reconcile(ObjectKey key) {
        Optional<T> object = informer.get(key);
        if (object.isEmpty()) {
            // Absent from the watched scope: nothing to reconcile; owned children go with garbage collection.
            queue.forget(key);
            return;
        }
        try {
            Result result = reconciler.reconcile(object.get(), new ReconcileContext<>(name(), key, client));
            queue.forget(key);
            successes.incrementAndGet();
            if (result != null) {
                result.requeueAfter().ifPresent(delay -> queue.addAfter(key, delay));
            }
        } catch (TerminalException e) {
            queue.forget(key);
            terminalErrors.incrementAndGet();
            LOG.log(Level.WARNING, "Reconcile of " + describe(key) + " failed terminally (no retry): " + e.getMessage(), e);
        } catch (Exception e) {
            errors.incrementAndGet();
            Duration delay = queue.retry(key);
            LOG.log(Level.WARNING, String.format("Reconcile of %s failed; retry in %.2f s: %s", describe(key),
                    delay.toMillis() / 1000.0, e), e);
        }
    }

    private String describe(ObjectKey key) {
        return definition.kind().getSimpleName() + " " + key + " (controller " + name() + ")";
    }

    // --- informer events ---

    @Override
    public void onAdd(T object) {
        queue.add(ObjectKey.of(object));
    }

    @Override
    public void onUpdate(T oldObject, T newObject) {
        if (oldObject == newObject || !onlyStatusChanged(oldObject, newObject)) {
            queue.add(ObjectKey.of(newObject));
        }
    }

    @Override
    public void onDelete(T object) {
        queue.add(ObjectKey.of(object));
    }

    /**
     * True when two versions differ only in status, resourceVersion or managedFields: such
     * updates (typically the controller's own status writes) do not trigger a reconcile.
     * Equal resourceVersions (a resync or relist) always do.
     */
    static boolean onlyStatusChanged(KubernetesObject oldObject, KubernetesObject newObject) {
        String oldVersion = oldObject.getMetadata().getResourceVersion();
        String newVersion = newObject.getMetadata().getResourceVersion();
        if (oldVersion != null && oldVersion.equals(newVersion)) {
            return false;
        }
        return withoutVolatileParts(oldObject).equals(withoutVolatileParts(newObject));
    }

    private static JsonObject withoutVolatileParts(KubernetesObject object) {
        JsonObject json = JSON.getGson().toJsonTree(object).getAsJsonObject();
        json.remove("status");
        JsonObject metadata = json.getAsJsonObject("metadata");
        if (metadata != null) {
            metadata.remove("resourceVersion");
            metadata.remove("managedFields");
        }
        return json;
    }

    // --- lifecycle and status ---

    private void fail(Throwable cause) {
        ControllerState previous = state.getAndUpdate(
                s -> s == ControllerState.STARTING || s == ControllerState.READY ? ControllerState.FAILED : s);
        if (previous != ControllerState.STARTING && previous != ControllerState.READY) {
            return; // already stopped or failed: a late error changes nothing
        }
        failure.set(cause);
        LOG.log(Level.SEVERE, "Controller " + name() + " failed: " + cause.getMessage(), cause);
        halt(Duration.ZERO);
        onFailure.accept(this);
    }

    /** Stop: no new work, ready work drains for up to the shutdown timeout, then workers are interrupted. */
    public void stop() {
        ControllerState previous = state.getAndUpdate(s -> s == ControllerState.FAILED ? s : ControllerState.STOPPED);
        if (previous != ControllerState.FAILED) {
            halt(SHUTDOWN_TIMEOUT);
        }
    }

    private void halt(Duration drain) {
        Informer<T> running = informer;
        if (running != null) {
            running.stop();
        }
        queue.shutdown(drain.isZero());
        List<Future<?>> pending;
        synchronized (this) {
            pending = new ArrayList<>(tasks);
        }
        long end = System.nanoTime() + drain.toNanos();
        for (Future<?> task : pending) {
            try {
                long left = end - System.nanoTime();
                if (left > 0) {
                    task.get(left, TimeUnit.NANOSECONDS);
                }
            } catch (TimeoutException | java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException e) {
                // cancelled below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            task.cancel(true);
        }
    }

    public ControllerStatus status() {
        Throwable cause = failure.get();
        return new ControllerStatus(name(), definition.kind().getSimpleName(), state.get(),
                cause == null ? null : cause.getMessage(), queue.depth(), queue.processing(), queue.delayed(),
                successes.get(), errors.get(), terminalErrors.get());
    }
}
