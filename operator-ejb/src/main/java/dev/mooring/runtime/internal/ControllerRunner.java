package dev.mooring.runtime.internal;

import com.google.gson.JsonObject;
import dev.mooring.api.Cache;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.api.queue.WorkQueue;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one controller: informer events become keys in its work queue, and workers reconcile the
 * keys, never two passes of one key at once.
 *
 * <p>Each pass ends in exactly one {@link Outcome}: one queue action and one counted outcome.
 * Informers are attached before start (by {@link OperatorRuntime}); workers run on the managed
 * executor given to {@link #startWorkers}.
 */
public final class ControllerRunner<T extends KubernetesObject> {

    private static final Logger LOG = Logger.getLogger(ControllerRunner.class.getName());

    private final ControllerDefinition definition;
    private final Reconciler<T> reconciler;
    private final Function<String, ResourceClient> clients;
    private final RequestScope requestScope;
    private final Consumer<ControllerRunner<?>> onFailure;
    private final WorkQueue<ObjectKey> queue;
    private final EventRecorder events;
    private final PassObserver observer;
    /** Bound of sending the Events of one pass. */
    static final Duration EVENT_FLUSH_TIMEOUT = Duration.ofSeconds(2);

    private final AtomicReference<ControllerState> state = new AtomicReference<>(ControllerState.STARTING);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong successes = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong terminalErrors = new AtomicLong();
    private final AtomicLong cancellations = new AtomicLong();
    private final AtomicLong durationNanos = new AtomicLong();
    private final List<Future<?>> workers = new ArrayList<>();
    /** Threads still inside {@link #work()}: a cancelled Future does not mean its thread has left. */
    private final java.util.Set<Thread> running = new java.util.HashSet<>();
    /** Every event source this controller subscribed to, distinct instances (one kind may have two). */
    private final List<EventSource<?>> sources = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<Class<?>, Cache<?>> caches = new LinkedHashMap<>();
    /** Caches of owned kinds (for pruning): for the primary's own kind, not the primary cache. */
    private final Map<Class<?>, Cache<?>> ownedCaches = new LinkedHashMap<>();
    private volatile EventSource<T> primary;
    private volatile ScheduledExecutorService scheduler;

    /**
     * @param clients the live client for a default namespace
     * @param onFailure told once when the controller fails fatally
     */
    public ControllerRunner(ControllerDefinition definition, Reconciler<T> reconciler, Function<String, ResourceClient> clients,
            RequestScope requestScope, WorkQueue<ObjectKey> queue, EventRecorder events, PassObserver observer,
            Consumer<ControllerRunner<?>> onFailure) {
        this.events = events;
        this.observer = observer;
        this.definition = definition;
        this.reconciler = reconciler;
        this.clients = clients;
        this.requestScope = requestScope;
        this.queue = queue;
        this.onFailure = onFailure;
    }

    public String name() {
        return definition.name();
    }

    public ControllerDefinition definition() {
        return definition;
    }

    // --- wiring, before start ---

    /** Subscribe to the primary kind's source. */
    public void attachPrimary(EventSource<T> informer) {
        primary = informer;
        register(informer);
        informer.addListener(new InformerListener<>() {
            @Override
            public void onAdd(T object) {
                queue.add(ObjectKey.of(object));
            }

            @Override
            public void onUpdate(T oldObject, T newObject) {
                if (definition.statusEvents() || !onlyStatusChanged(oldObject, newObject)) {
                    queue.add(ObjectKey.of(newObject));
                }
            }

            @Override
            public void onDelete(T object) {
                queue.add(ObjectKey.of(object));
            }
        });
    }

    /**
     * Subscribe to an owned kind: a child's change enqueues its controlling owner if it is a
     * cached primary (same UID); a child's deletion enqueues the cached primary of the owner's
     * name whatever its UID, so that the deletion of a child of a replaced owner brings the new
     * owner of the same name back at once.
     */
    public <C extends KubernetesObject> void attachOwned(EventSource<C> children) {
        register(children);
        ownedCaches.putIfAbsent(children.type().modelClass(), new InformerCache<>(children));
        subscribe(children, "the owner mapper", this::controllingOwner);
    }

    /** Subscribe to a dependency with a mapper. */
    @SuppressWarnings("unchecked")
    public <D extends KubernetesObject> void attachWatch(EventSource<D> dependency, WatchMapper mapper) {
        register(dependency);
        subscribe(dependency, mapper.description(), (object, deleted) -> {
            Collection<?> keys = mapper.mapper().map(object);
            if (keys == null) {
                return List.of();
            }
            for (Object key : keys) {
                if (!(key instanceof ObjectKey)) {
                    throw new IllegalStateException("returned " + (key == null ? "null" : key.getClass().getName())
                            + " instead of ObjectKey values");
                }
            }
            return (Collection<ObjectKey>) keys;
        });
    }

    private void register(EventSource<?> informer) {
        if (!sources.contains(informer)) {
            sources.add(informer);
        }
        caches.putIfAbsent(informer.type().modelClass(), new InformerCache<>(informer));
        informer.onFailure(this::fail);
    }

    private interface KeyMapping<D> {
        Collection<ObjectKey> keys(D object, boolean deleted) throws Exception;
    }

    /** Maps old and new states of a watched object; the whole mapping succeeds before any key is enqueued. */
    private <D extends KubernetesObject> void subscribe(EventSource<D> informer, String description, KeyMapping<D> mapping) {
        informer.addListener(new InformerListener<>() {
            @Override
            public void onAdd(D object) {
                enqueueMapped(object, null, false);
            }

            @Override
            public void onUpdate(D oldObject, D newObject) {
                enqueueMapped(newObject, oldObject, false);
            }

            @Override
            public void onDelete(D object) {
                enqueueMapped(object, null, true);
            }

            private void enqueueMapped(D object, D previous, boolean deleted) {
                if (state.get() == ControllerState.FAILED || state.get() == ControllerState.STOPPED) {
                    return;
                }
                Set<ObjectKey> keys = new LinkedHashSet<>();
                try {
                    if (previous != null && previous != object) {
                        keys.addAll(mapping.keys(Models.copy(previous), false));
                    }
                    keys.addAll(mapping.keys(Models.copy(object), deleted));
                } catch (Exception | Error e) {
                    fail(new IllegalStateException("Watch mapping of " + informer.type().kind() + " "
                            + ObjectKey.of(object) + " by " + description + " failed: " + e, e));
                    return;
                }
                keys.forEach(queue::add);
            }
        });
    }

    private Collection<ObjectKey> controllingOwner(KubernetesObject child, boolean deleted) {
        ResourceType<T> primaryType = primary.type();
        List<V1OwnerReference> references = child.getMetadata().getOwnerReferences();
        if (references == null) {
            return List.of();
        }
        List<ObjectKey> owners = new ArrayList<>(1);
        for (V1OwnerReference reference : references) {
            if (Boolean.TRUE.equals(reference.getController()) && primaryType.kind().equals(reference.getKind())
                    && primaryType.group().equals(groupOf(reference.getApiVersion()))) {
                ObjectKey key = new ObjectKey(primaryType.namespaced() ? child.getMetadata().getNamespace() : null,
                        reference.getName());
                primary.get(key)
                        .filter(owner -> deleted || Objects.equals(owner.getMetadata().getUid(), reference.getUid()))
                        .ifPresent(owner -> owners.add(key));
            }
        }
        return owners;
    }

    private static String groupOf(String apiVersion) {
        int slash = apiVersion == null ? -1 : apiVersion.lastIndexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /** The event sources of this controller, primary first. */
    public List<EventSource<?>> sources() {
        List<EventSource<?>> ordered = new ArrayList<>();
        ordered.add(primary);
        sources.stream().filter(source -> source != primary).forEach(ordered::add);
        return ordered;
    }

    // --- running ---

    /** Start the workers (once every informer has synced); marks the controller ready. */
    public synchronized void startWorkers(ExecutorService executor, ScheduledExecutorService timers) {
        if (!state.compareAndSet(ControllerState.STARTING, ControllerState.READY)) {
            return;
        }
        this.scheduler = timers;
        for (int i = 0; i < definition.workers(); i++) {
            workers.add(executor.submit(this::work));
        }
        LOG.info(() -> "Controller " + name() + " is ready: " + sources().stream().map(EventSource::describe).toList()
                + ", " + definition.workers() + " worker(s)");
    }

    /** Request a pass of {@code key}; coalesced; a no-op after stop. */
    public void enqueue(ObjectKey key) {
        queue.add(Objects.requireNonNull(key, "key"));
    }

    private void work() {
        synchronized (this) {
            running.add(Thread.currentThread());
        }
        try {
            for (Optional<ObjectKey> next = queue.get(); next.isPresent(); next = queue.get()) {
                ObjectKey key = next.get();
                try (LogFields.Scope fields = LogFields.pass(name(), primary.type().kind(), key.namespace(), key.name())) {
                    reconcile(key);
                } finally {
                    queue.done(key);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            // a bug in the engine must not end a worker silently
            fail(new IllegalStateException("A worker of controller " + name() + " stopped unexpectedly: " + e, e));
        } finally {
            synchronized (this) {
                running.remove(Thread.currentThread());
                notifyAll();
            }
        }
    }

    /**
     * Wait until no worker thread runs any more (after a stop or a failure interrupted them). A
     * worker that calls this (a failure reported from a pass) does not wait for itself.
     *
     * @return false if some still ran when the timeout passed (code that ignores interrupts)
     */
    public synchronized boolean awaitWorkersStopped(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!running.isEmpty() && !(running.size() == 1 && running.contains(Thread.currentThread()))) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    private void reconcile(ObjectKey key) {
        // the pass reads the cached object (for owner references and status) and gives the reconciler its one copy
        Optional<T> cached = primary.cached(key);
        if (cached.isEmpty()) {
            // Absent from the watched scope: nothing to reconcile; owned children go with garbage collection.
            queue.forget(key);
            return;
        }
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> timer = scheduleTimeout(timedOut);
        long start = System.nanoTime();
        long passNanos;
        Outcome outcome;
        ReconcileContext<T> context = context(key, cached.get());
        try (RequestScope.Activation scope = requestScope.activate()) {
            outcome = Outcome.returned(pass(Models.copy(cached.get()), context));
        } catch (Exception | AssertionError e) {
            outcome = Outcome.thrown(e, timedOut.get());
        } finally {
            passNanos = System.nanoTime() - start;
            durationNanos.addAndGet(passNanos);
            if (timer != null) {
                timer.cancel(false);
                if (timedOut.get()) {
                    Thread.interrupted(); // the interrupt was for the pass, not for the worker
                }
            }
        }
        outcome = persistStatus(context, outcome, key);
        context.flushEvents(events, EVENT_FLUSH_TIMEOUT);
        Optional<Duration> retry = outcome.applyTo(queue, key);
        count(outcome, key, retry);
        try {
            observer.passed(name(), outcome.kind(), Duration.ofNanos(passNanos));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Recording the metrics of a pass of " + name() + " failed", e);
        }
    }

    /**
     * Writes the status staged in the pass, also after a failure. A failed status write makes
     * the pass an error (retried), even when the pass itself succeeded or failed terminally.
     */
    private Outcome persistStatus(ReconcileContext<T> context, Outcome outcome, ObjectKey key) {
        try {
            context.persistStatus();
            return outcome;
        } catch (RuntimeException e) {
            if (outcome.kind() == Outcome.Kind.ERROR || outcome.kind() == Outcome.Kind.CANCELLED) {
                LOG.log(Level.WARNING, "Could not persist the status of " + describe(key) + ": " + e.getMessage());
                return outcome;
            }
            return Outcome.thrown(new IllegalStateException("Could not persist the status of " + describe(key) + ": "
                    + e.getMessage(), e), false);
        }
    }

    private void count(Outcome outcome, ObjectKey key, Optional<Duration> retry) {
        double seconds = retry.map(delay -> delay.toMillis() / 1000.0).orElse(0.0);
        switch (outcome.kind()) {
            case SUCCESS -> successes.incrementAndGet();
            case TERMINAL -> {
                terminalErrors.incrementAndGet();
                LOG.log(Level.WARNING, "Reconcile of " + describe(key) + " failed terminally (no retry): "
                        + outcome.cause().getMessage(), outcome.cause());
            }
            case CANCELLED -> {
                cancellations.incrementAndGet();
                LOG.warning(() -> String.format("Reconcile of %s exceeded its timeout of %s and was cancelled; retry in %.2f s",
                        describe(key), definition.reconcileTimeout(), seconds));
            }
            case ERROR -> {
                errors.incrementAndGet();
                LOG.log(Level.WARNING, String.format("Reconcile of %s failed; retry in %.2f s: %s", describe(key), seconds,
                        outcome.cause()), outcome.cause());
            }
        }
    }

    /**
     * One pass. With a declared cleanup: an object being deleted gets {@code cleanup} and then
     * loses the finalizer (only if the finalizer is there); any other object is reconciled as
     * cached when it carries the finalizer (no request), else first gets it with one guarded
     * PATCH of the cached copy (a stale copy conflicts and the pass is retried), then
     * {@code reconcile} on the object as stored.
     */
    @SuppressWarnings("unchecked")
    private dev.mooring.api.Result pass(T object, ReconcileContext<T> context) throws Exception {
        String finalizer = definition.finalizer();
        if (finalizer == null || !(reconciler instanceof dev.mooring.api.Cleanup<?>)) {
            return reconciler.reconcile(object, context);
        }
        dev.mooring.api.Cleanup<T> cleanup = (dev.mooring.api.Cleanup<T>) reconciler;
        if (object.getMetadata().getDeletionTimestamp() != null) {
            List<String> finalizers = object.getMetadata().getFinalizers();
            if (finalizers != null && finalizers.contains(finalizer)) {
                cleanup.cleanup(object, context);
                context.client().removeFinalizer(object, finalizer);
            }
            return dev.mooring.api.Result.done();
        }
        List<String> finalizers = object.getMetadata().getFinalizers();
        if (finalizers != null && finalizers.contains(finalizer)) {
            return reconciler.reconcile(object, context);
        }
        T marked = context.client() instanceof LiveResourceClient live ? live.addFinalizer(object, finalizer)
                : context.client().ensureFinalizer(object, finalizer);
        return reconciler.reconcile(marked, context);
    }

    private ScheduledFuture<?> scheduleTimeout(AtomicBoolean timedOut) {
        Duration timeout = definition.reconcileTimeout();
        if (timeout == null) {
            return null;
        }
        Thread worker = Thread.currentThread();
        return scheduler.schedule(() -> {
            timedOut.set(true);
            worker.interrupt();
        }, timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The context of a pass; {@code cached} is read, never changed. */
    private ReconcileContext<T> context(ObjectKey key, T cached) {
        return new ReconcileContext<>(name(), key, cached, clients.apply(key.namespace()), caches, ownedCaches,
                this::enqueue, java.time.Clock.systemUTC(),
                reconciler instanceof StagePipeline<?> pipeline ? pipeline.managedConditions() : java.util.Set.of());
    }

    private String describe(ObjectKey key) {
        return definition.kind().getSimpleName() + " " + key + " (controller " + name() + ")";
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

    /** Mark failed (once), stop the workers at once, and report to the runtime. */
    public void fail(Throwable cause) {
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

    /**
     * Stop: no new work, delayed retries discarded, ready work drains for up to the shutdown
     * timeout, then running passes are interrupted.
     */
    public void stop() {
        if (beginStop()) {
            finishStop(System.nanoTime());
        }
    }

    /**
     * First half of {@link #stop()}: the queue takes no new work (ready work stays to drain).
     *
     * @return true if this call stopped a running controller, so that {@link #finishStop} follows
     */
    public boolean beginStop() {
        ControllerState previous = state.getAndUpdate(s -> s == ControllerState.FAILED ? s : ControllerState.STOPPED);
        if (previous == ControllerState.FAILED || previous == ControllerState.STOPPED) {
            return false;
        }
        queue.shutdown(definition.shutdownTimeout().isZero());
        return true;
    }

    /**
     * Second half of {@link #stop()}: ready work drains until {@code begin} plus the shutdown
     * timeout, then running passes are interrupted.
     *
     * @param begin {@link System#nanoTime()} when the stop began
     */
    public void finishStop(long begin) {
        halt(definition.shutdownTimeout(), begin);
    }

    private void halt(Duration drain) {
        queue.shutdown(drain.isZero());
        halt(drain, System.nanoTime());
    }

    private void halt(Duration drain, long begin) {
        List<Future<?>> pending;
        synchronized (this) {
            pending = new ArrayList<>(workers);
        }
        long end = begin + drain.toNanos();
        for (Future<?> worker : pending) {
            try {
                long left = end - System.nanoTime();
                if (left > 0) {
                    worker.get(left, TimeUnit.NANOSECONDS);
                }
            } catch (TimeoutException | java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException e) {
                // interrupted below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            worker.cancel(true);
        }
    }

    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    public ControllerState state() {
        return state.get();
    }

    public ControllerStatus status() {
        Throwable cause = failure.get();
        return new ControllerStatus(name(), definition.kind().getSimpleName(), state.get(),
                cause == null ? null : cause.getMessage(), queue.depth(), queue.processing(), queue.delayed(),
                successes.get(), errors.get(), terminalErrors.get(), cancellations.get(),
                durationNanos.get() / 1e9);
    }
}
