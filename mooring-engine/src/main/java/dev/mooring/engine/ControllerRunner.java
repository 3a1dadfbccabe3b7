package dev.mooring.engine;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.handler.ControllingOwner;
import dev.mooring.engine.handler.EnqueueMapped;
import dev.mooring.engine.handler.EnqueueObject;
import dev.mooring.engine.handler.KeyMapping;
import dev.mooring.engine.handler.MapperKeys;
import dev.mooring.engine.informer.InformerCache;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerState;
import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.engine.model.WatchMapper;
import dev.mooring.engine.pass.ControllerCaches;
import dev.mooring.engine.pass.ControllerView;
import dev.mooring.engine.pass.Outcome;
import dev.mooring.engine.pass.Pass;
import dev.mooring.engine.pass.PassDispatcher;
import dev.mooring.engine.pass.PassEnvironment;
import dev.mooring.engine.pass.PassTimer;
import dev.mooring.engine.pass.StatusWrites;
import dev.mooring.engine.predicate.StatusOnlyChange;
import dev.mooring.engine.predicate.UpdatePredicate;
import dev.mooring.engine.queue.WorkQueue;
import dev.mooring.engine.source.EventSource;
import dev.mooring.engine.source.InformerListener;
import dev.mooring.engine.trace.LogFields;
import dev.mooring.engine.trace.Tracing;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one controller: events of its sources become keys in its work queue (through the
 * handlers of {@code dev.mooring.engine.handler}), and workers take the keys, never two passes of
 * one key at once, each pass run by the {@link PassDispatcher} within the reconcile timeout.
 *
 * <p>Each pass ends in exactly one {@link Outcome}, acted on in one place: one queue action, one
 * count, one log line. Sources are attached before start (by {@link OperatorRuntime}); workers
 * run on the managed executor given to {@link #startWorkers}. The runner keeps the queue, the
 * workers, timeouts and the lifecycle (stop, drain, failure).
 */
public final class ControllerRunner<T extends KubernetesObject> {

    private static final Logger LOG = Logger.getLogger(ControllerRunner.class.getName());

    private final ControllerDefinition definition;
    private final WorkQueue<ObjectKey> queue;
    private final PassObserver observer;
    private final Tracing tracing;
    private final Consumer<ControllerRunner<?>> onFailure;
    private final PassDispatcher<T> dispatcher;
    private final PassCounts counts = new PassCounts();

    private final AtomicReference<ControllerState> state = new AtomicReference<>(ControllerState.STARTING);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Future<?>> workers = new ArrayList<>();
    /** Threads still inside {@link #work()}: a cancelled Future does not mean its thread has left. */
    private final Set<Thread> running = new HashSet<>();
    /** Every event source this controller subscribed to, distinct instances (one kind may have two). */
    private final List<EventSource<?>> sources = new CopyOnWriteArrayList<>();
    private final ControllerCaches caches;
    /** The keys given up after their retries, with the resourceVersion they were given up at: no pass until it changes. */
    private final java.util.Map<ObjectKey, String> givenUp = new java.util.concurrent.ConcurrentHashMap<>();
    /** The bean's {@code @Poll} methods, started with the workers. */
    private final ControllerPolls<T> polls;
    /** This controller's status writes its primary cache has not delivered yet. */
    private final StatusWrites statusWrites = new StatusWrites();
    private volatile EventSource<T> primary;
    private volatile ScheduledExecutorService scheduler;
    /** With sharding: which keys this replica passes, and the pass's key for the write guard; null without. */
    private volatile dev.mooring.engine.replica.ShardGuard shards;
    /** How this controller's passes wait for the runtime's writes before they read a cache; none until {@link #readYourWrites}. */
    private volatile dev.mooring.engine.informer.ReadYourWrites reads = dev.mooring.engine.informer.ReadYourWrites.OFF;

    /**
     * @param pass the controller's kind of pass ({@link Pass#of})
     * @param environment what the passes reach outside the engine (clients, request scope, Events, clock)
     * @param onFailure told once when the controller fails fatally
     */
    public ControllerRunner(ControllerDefinition definition, Pass<T> pass, PassEnvironment environment,
            WorkQueue<ObjectKey> queue, PassObserver observer, Consumer<ControllerRunner<?>> onFailure) {
        this.definition = definition;
        this.queue = queue;
        this.observer = observer;
        this.tracing = observer.tracing();
        this.onFailure = onFailure;
        this.caches = new ControllerCaches(definition.name()).ownedSelectors(definition.ownsSelectors());
        this.polls = new ControllerPolls<>(definition.name(), definition.polls(), () -> primary, this::enqueue);
        this.dispatcher = new PassDispatcher<>(definition, pass, environment, new ControllerView(definition.name(),
                caches, this::enqueue, environment.clock(), definition.managedConditions(), statusWrites));
    }

    public String name() {
        return definition.name();
    }

    public ControllerDefinition definition() {
        return definition;
    }

    // --- wiring, before start ---

    /**
     * Every pass reads its primary object, and every read of its context, only after the cache read
     * has delivered the runtime's pending writes of it (bounded; see {@link dev.mooring.engine.informer.ReadYourWrites}).
     * Call before the sources are attached.
     */
    public void readYourWrites(dev.mooring.engine.informer.ReadYourWrites reads) {
        this.reads = Objects.requireNonNull(reads, "reads");
    }

    /** Subscribe to the primary kind's source: every change of an object enqueues it, status-only updates aside. */
    @SuppressWarnings("unchecked")
    public void attachPrimary(EventSource<T> source) {
        primary = source;
        register(source);
        source.addListener((InformerListener<T>) (InformerListener<?>) statusWrites);
        source.addListener(new EnqueueObject<>(queue::add,
                definition.statusEvents() ? UpdatePredicate.ALL : StatusOnlyChange.IGNORED));
    }

    /** Subscribe to an owned kind: a change of a child enqueues its controlling owner (see {@link ControllingOwner}). */
    public <C extends KubernetesObject> void attachOwned(EventSource<C> children) {
        register(children);
        caches.owned(children.type().modelClass(), new InformerCache<>(children, reads, name()));
        children.addListener(mapped(new ControllingOwner<>(primary), "the owner mapper", children));
    }

    /** Subscribe to a dependency with the author's mapper (after {@link #attachPrimary}: the mapper may read the primaries' cache). */
    @SuppressWarnings("unchecked")
    public <D extends KubernetesObject> void attachWatch(EventSource<D> dependency, WatchMapper mapper) {
        if (mapper.metadataOnly()) {
            if (!sources.contains(dependency)) {
                sources.add(dependency);
            }
            caches.metadata(mapper.kind(), new InformerCache<>((EventSource<dev.mooring.api.PartialObjectMetadata>) dependency, reads, name()));
            dependency.onFailure(this::fail);
        } else {
            register(dependency);
        }
        dependency.addListener(mapped(new MapperKeys<>(mapper, new InformerCache<>(primary)), mapper.description(), dependency));
    }

    private <D extends KubernetesObject> EnqueueMapped<D> mapped(KeyMapping<D> mapping, String description,
            EventSource<D> source) {
        return new EnqueueMapped<>(mapping, description, source.type().kind(), queue::add,
                () -> state.get() != ControllerState.FAILED && state.get() != ControllerState.STOPPED, this::fail);
    }

    private void register(EventSource<?> source) {
        if (!sources.contains(source)) {
            sources.add(source);
        }
        caches.watched(source.type().modelClass(), new InformerCache<>(source, reads, name()));
        source.onFailure(this::fail);
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
        polls.start(executor, timers);
        LOG.info(() -> "Controller " + name() + " is ready: " + sources().stream().map(EventSource::describe).toList()
                + ", " + definition.workers() + " worker(s)");
    }

    /**
     * Share the work with other replicas: pass only the keys {@code shards} takes (asked when a
     * worker takes the key; the others leave the queue without a pass), each pass marked with its
     * key for the write guard. Call before {@link #startWorkers}.
     */
    public void shareWork(dev.mooring.engine.replica.ShardGuard shards) {
        this.shards = Objects.requireNonNull(shards, "shards");
    }

    /**
     * Queue, as backlog ({@link dev.mooring.engine.queue.Priority#LOW}), every cached primary
     * whose key {@code keys} accepts: the objects of a shard this replica just took get a pass.
     */
    public void enqueueCached(java.util.function.Predicate<ObjectKey> keys) {
        EventSource<T> source = primary;
        if (source == null) {
            return;
        }
        for (T object : source.list()) {
            ObjectKey key = ObjectKey.of(object);
            if (keys.test(key)) {
                queue.add(key, dev.mooring.engine.queue.Priority.LOW);
            }
        }
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
                dev.mooring.engine.replica.ShardGuard sharding = shards;
                if (sharding != null && !sharding.takes(key)) {
                    // another replica's shard: passed there, or queued again here when this replica takes it
                    queue.forget(key);
                    queue.done(key);
                    continue;
                }
                String reconcileId = java.util.UUID.randomUUID().toString();
                try (dev.mooring.engine.replica.ShardGuard.Passing passing = sharding == null ? () -> { } : sharding.passing(key);
                        Tracing.Span span = tracing.pass(name(), primary.type().kind(), key.namespace(), key.name(), reconcileId);
                        LogFields.Scope fields = LogFields.pass(name(), primary.type().kind(), key.namespace(), key.name(), reconcileId);
                        LogFields.Scope traced = LogFields.trace(span)) {
                    Outcome.Kind outcome = reconcile(key);
                    span.outcome(outcome == null ? "absent" : outcome.name().toLowerCase(java.util.Locale.ROOT));
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

    /** One pass of {@code key}; its outcome, or null when the object is not cached (nothing to do). */
    private Outcome.Kind reconcile(ObjectKey key) {
        // the pass reads the cached object (for owner references and status) and gives the reconciler its one copy,
        // once the cache has delivered the runtime's own last write of it
        reads.awaitKey(name(), primary, key);
        Optional<T> cached = primary.cached(key);
        if (cached.isEmpty()) {
            // Absent from the watched scope: nothing to reconcile; owned children go with garbage collection.
            queue.forget(key);
            givenUp.remove(key);
            return null;
        }
        String gaveUpAt = givenUp.get(key);
        if (gaveUpAt != null) {
            if (gaveUpAt.equals(cached.get().getMetadata().getResourceVersion())) {
                queue.forget(key); // unchanged since its retries ran out: a resync or a child's event does not bring it back
                return null;
            }
            givenUp.remove(key);
        }
        PassTimer timer = PassTimer.start(scheduler, definition.reconcileTimeout());
        int retries = queue.numRetries(key);
        int limit = definition.queuePolicy().retryLimit();
        Outcome outcome = dispatcher.dispatch(key, cached.get(), timer, new dev.mooring.api.Attempt(retries + 1, limit > 0 && retries >= limit));
        settle(key, cached.get(), outcome, timer.nanos());
        return outcome.kind();
    }

    /** The one place an outcome is acted on: the queue action, the count, the log and the observer. */
    private void settle(ObjectKey key, T cached, Outcome outcome, long nanos) {
        counts.took(nanos);
        switch (outcome.kind()) {
            case SUCCESS -> {
                queue.forget(key);
                outcome.requeueAfter().ifPresent(delay -> queue.addAfter(key, delay));
                counts.succeeded();
            }
            case TERMINAL -> {
                queue.forget(key);
                counts.failedTerminally();
                LOG.log(Level.WARNING, "Reconcile of " + dispatcher.describe(key) + " failed terminally (no retry): "
                        + outcome.cause().getMessage(), outcome.cause());
            }
            case CANCELLED, ERROR -> {
                if (retriesLeft(key)) {
                    retry(key, outcome);
                } else {
                    giveUp(key, cached, outcome);
                }
            }
        }
        try {
            observer.passed(name(), outcome.kind(), Duration.ofNanos(nanos));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Recording the metrics of a pass of " + name() + " failed", e);
        }
    }

    private boolean retriesLeft(ObjectKey key) {
        int limit = definition.queuePolicy().retryLimit();
        return limit == 0 || queue.numRetries(key) < limit;
    }

    private void retry(ObjectKey key, Outcome outcome) {
        switch (outcome.kind()) {
            case CANCELLED -> {
                double seconds = queue.retry(key).toMillis() / 1000.0;
                counts.cancelled();
                LOG.warning(() -> String.format("Reconcile of %s exceeded its timeout of %s and was cancelled; retry in %.2f s",
                        dispatcher.describe(key), definition.reconcileTimeout(), seconds));
            }
            default -> {
                double seconds = queue.retry(key).toMillis() / 1000.0;
                counts.failed();
                LOG.log(Level.WARNING, String.format("Reconcile of %s failed; retry in %.2f s: %s", dispatcher.describe(key),
                        seconds, outcome.cause()), outcome.cause());
            }
        }
    }

    /**
     * The key's retries ran out: no retry, and no pass until its object changes (a new
     * resourceVersion); a Warning Event on the object, a log line and the observer's count say so.
     */
    private void giveUp(ObjectKey key, T cached, Outcome outcome) {
        int passes = queue.numRetries(key) + 1;
        queue.forget(key);
        givenUp.put(key, String.valueOf(cached.getMetadata().getResourceVersion()));
        if (outcome.kind() == Outcome.Kind.CANCELLED) {
            counts.cancelled();
        } else {
            counts.failed();
        }
        String note = "Gave up after " + passes + " failed passes (retry-limit " + definition.queuePolicy().retryLimit()
                + "); the next change of the object is reconciled again: " + outcome.cause();
        LOG.log(Level.WARNING, "Reconcile of " + dispatcher.describe(key) + ": " + note, outcome.cause());
        dispatcher.gaveUp(cached, note.length() > 1024 ? note.substring(0, 1024) : note);
        try {
            observer.gaveUp(name());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Recording the metrics of a pass of " + name() + " failed", e);
        }
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
        polls.stop();
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
        polls.stop();
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
            } catch (TimeoutException | ExecutionException | CancellationException e) {
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
                counts.successes(), counts.errors(), counts.terminalErrors(), counts.cancellations(),
                counts.durationSeconds(), seconds(queue.unfinishedWork()), seconds(queue.longestRunning()));
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
