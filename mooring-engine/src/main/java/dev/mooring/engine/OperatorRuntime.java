package dev.mooring.engine;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.engine.client.LiveResourceClient;
import dev.mooring.engine.informer.Informer;
import dev.mooring.engine.informer.InformerPool;
import dev.mooring.engine.kube.DiscoveredKinds;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.ResourceType;
import dev.mooring.engine.kube.Selectors;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerState;
import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.engine.model.StagePlan;
import dev.mooring.engine.model.WatchMapper;
import dev.mooring.engine.pass.EventRecorder;
import dev.mooring.engine.pass.Pass;
import dev.mooring.engine.pass.PassEnvironment;
import dev.mooring.engine.queue.RetryPolicy;
import dev.mooring.engine.queue.WorkQueue;
import dev.mooring.engine.source.EventSource;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * All controllers of one deployment with a shared lifetime; independent of the container, so
 * that it can also run embedded (in tests) with plain executors.
 *
 * <p>Start-up runs on one managed task: every kind is resolved through discovery (transient
 * failures retried within each controller's sync timeout); every controller subscribes to its
 * informers (shared through the {@link InformerPool}) before any watch starts, so each sees the
 * initial objects; primary informers are started and synced first, then the others; then each
 * controller's workers start ({@link #start()}), or wait until {@link #start()} is called
 * ({@link #warmUp()}: a warm standby keeps its caches and queues in step and runs no pass until
 * it leads). A fatal failure of one controller stops its siblings and marks the
 * runtime failed: recovering means a new deployment or a new server process.
 */
public final class OperatorRuntime implements dev.mooring.engine.replica.ReplicaCoordinator.Workload {

    private static final Logger LOG = Logger.getLogger(OperatorRuntime.class.getName());

    /**
     * A controller to run: its definition (namespace resolved) and its bean, which {@link Pass#of}
     * turns into the controller's pass.
     *
     * @param bean a {@code Reconciler}, a {@code DesiredStateReconciler} or a {@code Staged} bean
     * @param stages the stage plan of a {@code Staged} bean, else null
     */
    public record Entry(ControllerDefinition definition, Object bean, StagePlan stages) {

        public Entry {
            java.util.Objects.requireNonNull(definition, "definition");
            java.util.Objects.requireNonNull(bean, "bean");
        }

        /** A controller of a plain {@code Reconciler} or a {@code DesiredStateReconciler}. */
        public Entry(ControllerDefinition definition, Reconciler<?> reconciler) {
            this(definition, reconciler, null);
        }
    }

    /** Retry settings shared by the work queues and the informers' reconnects. */
    public record Retry(Duration baseDelay, Duration maxDelay) {
        public static final Retry DEFAULT = new Retry(RetryPolicy.DEFAULT_BASE_DELAY, RetryPolicy.DEFAULT_MAX_DELAY);
    }

    /** The informers of one controller: the primary kind's (several with a namespace set) and all, primary first. */
    private static final class Subscriptions {
        final List<Informer<?>> primary = new CopyOnWriteArrayList<>();
        final List<Informer<?>> all = new CopyOnWriteArrayList<>();
        /** The controller's sources over a namespace set, each with how a member is made. */
        final List<SetMembers<?>> sets = new CopyOnWriteArrayList<>();
    }

    /** A source over a namespace set, and the informer it takes in each namespace. */
    private record SetMembers<T extends KubernetesObject>(dev.mooring.engine.informer.NamespaceSetSource<T> source,
            ResourceType<T> type, Selectors selectors, dev.mooring.engine.model.ObjectTransform transform, boolean primary) {
    }

    private final DiscoveredKinds types;
    private final KubeHttp requests;
    private final InformerPool pool;
    private final PassObserver observer;
    private final ExecutorService executor;
    private final ScheduledExecutorService scheduler;
    private final Map<String, ControllerRunner<?>> runners = new LinkedHashMap<>();
    /** The informers each controller is subscribed to (written by the start-up task, then under {@link #namespaceChanges}). */
    private final Map<ControllerRunner<?>, Subscriptions> subscriptions = new java.util.concurrent.ConcurrentHashMap<>();
    /** Guards the namespace sets: their changes, and the start-up's hand-over of each controller to them. */
    private final Object namespaceChanges = new Object();
    /** The namespace set each controller with one should watch, and whether its informers run (changes apply at once). */
    private final Map<ControllerRunner<?>, Set<String>> wantedNamespaces = new java.util.HashMap<>();
    private final Set<ControllerRunner<?>> followingNamespaces = new java.util.HashSet<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final List<Runnable> failureListeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean failed = new AtomicBoolean();
    private volatile Future<?> startup;
    /** Whether the workers may start (set by {@link #start()}); the start-up task starts them once synced. */
    private final AtomicBoolean workersWanted = new AtomicBoolean();
    /** The controllers whose informers have synced, in start-up order. */
    private final List<ControllerRunner<?>> synced = new CopyOnWriteArrayList<>();
    /** The clock of the passes' contexts. */
    private final java.time.Clock clock;
    /** The runtime's writes its caches have not delivered yet, and how passes wait for them. */
    private final dev.mooring.engine.informer.ReadYourWrites reads;
    /**
     * Set by a {@link #start()} after a {@link #warmUp()} with read-your-writes on: another replica
     * may have written until now, so each controller's informers list again before its workers start.
     */
    private volatile boolean handOver;
    /** Set by a cold {@link #takeOver()}: every informer's first list is a consistent one. */
    private volatile boolean consistentFirstLists;
    /** The controllers whose hand-over lists are under way or done. */
    private final Set<ControllerRunner<?>> caughtUp = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The hand-over's list asked of each informer (its ticket): one list per informer, whichever controllers share it. */
    private final Map<Informer<?>, Long> handOverLists = new java.util.concurrent.ConcurrentHashMap<>();
    /** With shards and read-your-writes: the shards taken whose lists are under way; their keys are not passed yet. */
    private final Set<Integer> shardsCatchingUp = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final dev.mooring.engine.replica.ShardCoordinator shardCoordinator;

    /** Built by {@link Engine#builder}; see there for the parts. */
    OperatorRuntime(Engine.Builder parts) {
        // with shards, every write of a pass is checked against its key's shard: the workers say which key they pass
        boolean readYourWrites = parts.readYourWrites.enabled();
        dev.mooring.engine.replica.ShardCoordinator coordinator = parts.shards;
        this.shardCoordinator = coordinator;
        dev.mooring.engine.replica.ShardGuard guard = coordinator == null ? null
                : new dev.mooring.engine.replica.ShardGuard(
                        key -> coordinator.owns(key) && (shardsCatchingUp.isEmpty() || !shardsCatchingUp.contains(coordinator.map().shardOf(key))),
                        coordinator::writesAllowed);
        dev.mooring.engine.informer.WrittenVersions written = readYourWrites ? new dev.mooring.engine.informer.WrittenVersions(this::informers) : null;
        KubeHttp guarded = guard == null ? parts.requests : guard.guard(parts.requests);
        this.requests = written == null ? guarded : guarded.observeWrites(written::answered);
        this.reads = new dev.mooring.engine.informer.ReadYourWrites(written, parts.readYourWrites, parts.observer::readWaited);
        this.clock = parts.clock;
        this.types = new DiscoveredKinds(requests);
        this.pool = new InformerPool(requests, parts.watches, parts.retry.maxDelay(), parts.observer::informerCreated);
        this.observer = parts.observer;
        this.executor = parts.executor;
        this.scheduler = parts.scheduler;
        for (Entry entry : parts.entries) {
            runners.put(entry.definition().name(), runner(entry, parts));
        }
        if (guard != null) {
            dev.mooring.engine.replica.ShardCoordinator shards = parts.shards;
            runners.values().forEach(runner -> runner.shareWork(guard));
            shards.listen(new dev.mooring.engine.replica.ShardCoordinator.Listener() {
                @Override
                public void acquired(int shard) {
                    if (!readYourWrites) {
                        queueShard(shard);
                        return;
                    }
                    // its last holder may have written until now: its keys wait until every cache lists again
                    shardsCatchingUp.add(shard);
                    executor.submit(() -> catchUpShard(shard));
                }

                @Override
                public void released(int shard) {
                    // its keys are skipped by the workers from now on; the queue keeps nothing to drop
                }
            });
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private ControllerRunner<?> runner(Entry entry, Engine.Builder parts) {
        String name = entry.definition().name();
        dev.mooring.engine.model.QueuePolicy policy = entry.definition().queuePolicy();
        java.time.Duration base = policy.baseDelayOr(parts.retry.baseDelay());
        java.time.Duration max = policy.maxDelayOr(parts.retry.maxDelay());
        if (max.compareTo(base) < 0) {
            throw new IllegalArgumentException("Controller " + name + ": its first retry delay (" + base + ") is longer than its longest"
                    + " (" + max + "); set mooring.controller." + name + ".retry-base-delay and .retry-max-delay, or mooring.retry.*,"
                    + " so that they agree");
        }
        WorkQueue<ObjectKey> queue = new WorkQueue<>(RetryPolicy.exponential(base, max, RetryPolicy.DEFAULT_JITTER), System::nanoTime,
                parts.observer.queue(name));
        if (policy.maxPassRate() > 0) {
            queue.limitRate(policy.maxPassRate(), policy.burst());
        }
        PassEnvironment environment = new PassEnvironment(namespace -> new LiveResourceClient(requests, types, namespace),
                parts.requestScope, new EventRecorder(requests, "mooring/" + name, parts.operatorNamespace), clock);
        ControllerRunner<?> runner = new ControllerRunner(entry.definition(), Pass.of(entry.definition(), entry.bean(), entry.stages()),
                environment, queue, parts.observer,
                failed -> onFailure((ControllerRunner<?>) failed));
        runner.readYourWrites(reads);
        return runner;
    }

    /**
     * Start on the executor, workers included; returns at once. After {@link #warmUp()}, starts
     * the workers of the controllers already synced at once and those of the others when they
     * sync: no list is sent again.
     */
    public synchronized void start() {
        begin(false);
    }

    /**
     * {@link #start()} after this replica took the lead from another, which may have written until
     * now: with read-your-writes, a warm cache lists again before the workers start (see
     * {@link #catchUp}); a cold one lists consistently the first time (not from the API server's
     * watch cache), which is as good and costs no second list.
     */
    @Override
    public synchronized void takeOver() {
        begin(true);
    }

    private void begin(boolean takingOver) {
        workersWanted.set(true);
        handOver = takingOver && startup != null && reads.settings().enabled();
        consistentFirstLists = takingOver && startup == null && reads.settings().enabled();
        if (startup == null) {
            startup = executor.submit(this::startUp);
        }
        synced.forEach(this::startWorkers);
    }

    /**
     * Start everything but the workers, on the executor; returns at once: kinds are resolved,
     * informers list and watch, events fill the work queues, and no pass runs (so nothing is
     * written) until {@link #start()}. A sync that exceeds a controller's sync timeout fails it as
     * it would on start.
     */
    public synchronized void warmUp() {
        if (startup == null) {
            startup = executor.submit(this::startUp);
        }
    }

    private void startWorkers(ControllerRunner<?> runner) {
        if (workersWanted.get() && runner.state() == ControllerState.STARTING && !stopping.get()) {
            if (!handOver) {
                runner.startWorkers(executor, scheduler);
            } else if (caughtUp.add(runner)) {
                executor.submit(() -> catchUp(runner));
            }
        }
    }

    /**
     * The hand-over barrier of read-your-writes: the replica that led before may have written until
     * this one took over, and this one's caches (warm since before) may not have delivered it yet.
     * Each informer of the controller lists again, consistently, before its workers start (bounded
     * by the sync timeout: then they start anyway, with a warning); its caches then hold every
     * write made before the hand-over. An informer shared by several controllers lists once.
     */
    private void catchUp(ControllerRunner<?> runner) {
        long begin = System.nanoTime();
        long deadline = begin + runner.definition().syncTimeout().toNanos();
        try {
            List<Informer<?>> informers = subscriptionsOf(runner).all;
            informers.forEach(informer -> handOverLists.computeIfAbsent(informer, Informer::askRelist)); // all asked, then awaited
            for (Informer<?> informer : informers) {
                if (!informer.awaitRelist(handOverLists.get(informer), deadline) && runner.state() == ControllerState.STARTING
                        && !stopping.get()) {
                    LOG.warning(() -> "Controller " + runner.name() + " took over without a fresh list of " + informer.describe()
                            + " within " + syncTimeout(runner) + "; its first passes may read what the previous leader"
                            + " changed before its cache has it");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        LOG.info(() -> "Controller " + runner.name() + " took over: its caches listed again, consistently, in "
                + (System.nanoTime() - begin) / 1_000_000 + " ms, before its first pass (read-your-writes)");
        if (workersWanted.get() && runner.state() == ControllerState.STARTING && !stopping.get()) {
            runner.startWorkers(executor, scheduler);
        }
    }

    /**
     * The shard's barrier: every informer lists again, consistently, before the shard's keys are
     * passed (its last holder's writes then are in the caches); then its cached objects are queued.
     */
    private void catchUpShard(int shard) {
        long deadline = System.nanoTime() + runners.values().stream().map(runner -> runner.definition().syncTimeout())
                .max(Duration::compareTo).orElse(Duration.ofMinutes(1)).toNanos();
        try {
            List<Informer<?>> informers = informers();
            Map<Informer<?>, Long> tickets = new java.util.HashMap<>();
            informers.forEach(informer -> tickets.put(informer, informer.askRelist())); // all asked, then awaited
            for (Informer<?> informer : informers) {
                if (!informer.awaitRelist(tickets.get(informer), deadline) && !stopping.get()) {
                    LOG.warning(() -> "Shard " + shard + " is passed without a fresh list of " + informer.describe()
                            + "; its first passes may read what its last holder changed before the cache has it");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } finally {
            shardsCatchingUp.remove(shard);
        }
        queueShard(shard);
    }

    /** Queues, as backlog, every cached primary of {@code shard}: the objects of a shard this replica just took get a pass. */
    private void queueShard(int shard) {
        runners.values().forEach(runner -> runner.enqueueCached(key -> shardCoordinator.map().shardOf(key) == shard));
    }

    private void startUp() {
        long begin = System.nanoTime();
        List<ControllerRunner<?>> all = new ArrayList<>(runners.values());
        try {
            for (ControllerRunner<?> runner : all) {
                wire(runner, deadline(begin, runner));
            }
            for (ControllerRunner<?> runner : all) {
                if (runner.state() == ControllerState.STARTING) {
                    subscriptionsOf(runner).primary.forEach(this::startInformer);
                }
            }
            for (ControllerRunner<?> runner : all) {
                awaitSynced(runner, subscriptionsOf(runner).primary, deadline(begin, runner));
            }
            for (ControllerRunner<?> runner : all) {
                if (runner.state() == ControllerState.STARTING) {
                    subscriptionsOf(runner).all.forEach(this::startInformer);
                    followNamespaces(runner);
                }
            }
            for (ControllerRunner<?> runner : all) {
                awaitSynced(runner, subscriptionsOf(runner).all, deadline(begin, runner));
                if (runner.state() == ControllerState.STARTING && !stopping.get()) {
                    synced.add(runner); // then workersWanted is read: start() sees the runner, or this sees start()'s flag
                    startWorkers(runner);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            LOG.log(Level.SEVERE, "Mooring start-up failed", e);
            all.forEach(runner -> runner.fail(e));
        }
    }

    /** Starts an informer (once: the pool ignores a second start); after a cold take-over, its first list consistent. */
    private void startInformer(Informer<?> informer) {
        if (consistentFirstLists && !pool.started(informer)) {
            informer.askRelist(); // asked before its loop lists: that first list serves it, read consistently
        }
        pool.start(informer, executor, scheduler);
    }

    private Subscriptions subscriptionsOf(ControllerRunner<?> runner) {
        return subscriptions.computeIfAbsent(runner, r -> new Subscriptions());
    }

    private void subscribed(ControllerRunner<?> runner, Informer<?> informer, boolean primary) {
        Subscriptions of = subscriptionsOf(runner);
        if (primary && !of.primary.contains(informer)) {
            of.primary.add(informer);
        }
        if (!of.all.contains(informer)) {
            of.all.add(informer);
        }
    }

    /**
     * The source of one kind of a controller: the informer of its scope, shared as the pool
     * shares them; or, for a namespaced kind of a controller with a namespace set ({@code set}),
     * a source over an informer of its own in each namespace of the set.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private EventSource source(ControllerRunner<?> runner, ResourceType type, String scope, Selectors selectors,
            dev.mooring.engine.model.ObjectTransform transform, boolean primary, boolean set) {
        ControllerDefinition definition = runner.definition();
        if (!set || !type.namespaced()) {
            Informer informer = pool.acquire(type, scope, selectors, definition.resync(), definition.name(), transform);
            subscribed(runner, informer, primary);
            return informer;
        }
        SetMembers members = new SetMembers(new dev.mooring.engine.informer.NamespaceSetSource(type, selectors), type, selectors,
                transform, primary);
        subscriptionsOf(runner).sets.add(members);
        for (String namespace : definition.namespaces()) {
            join(runner, members, namespace);
        }
        return members.source();
    }

    /** Add the informer of {@code namespace} to a set's source (not started). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private Informer<?> join(ControllerRunner<?> runner, SetMembers members, String namespace) {
        ControllerDefinition definition = runner.definition();
        Informer member = pool.acquireOwn(members.type(), namespace, members.selectors(), definition.resync(), definition.name(),
                members.transform());
        members.source().add(member);
        subscribed(runner, member, members.primary());
        return member;
    }

    /**
     * Change the namespaces a controller with a namespace set watches ({@code @Controller(namespaces)}),
     * without a restart: the informers of the namespaces that leave the set stop and their objects
     * leave the caches (without delete events: the objects still exist), and the keys of those
     * namespaces still queued leave the queue without a pass; the informers of the namespaces that
     * join start, list and watch, and their objects come as adds. Returns at once. Before the
     * controller's informers start, the set is kept and applied when they do.
     *
     * @throws IllegalArgumentException if there is no such controller, or it watches one namespace or all of them
     */
    public void watchNamespaces(String name, Set<String> namespaces) {
        ControllerRunner<?> runner = runners.get(name);
        if (runner == null) {
            throw new IllegalArgumentException("No controller named '" + name + "'; controllers: " + runners.keySet());
        }
        if (runner.definition().namespaces() == null) {
            throw new IllegalArgumentException("Controller " + name + " watches " + (runner.definition().namespace() == null
                    ? "all namespaces" : "namespace " + runner.definition().namespace()) + ", not a set that may change"
                    + " (@Controller(namespaces) or " + dev.mooring.engine.model.ControllerOptions.PREFIX + name + ".namespaces)");
        }
        synchronized (namespaceChanges) {
            wantedNamespaces.put(runner, Set.copyOf(namespaces));
            if (followingNamespaces.contains(runner)) {
                applyNamespaces(runner);
            }
        }
    }

    /** The namespaces a controller with a namespace set watches now (empty for other controllers). */
    public Set<String> namespacesOf(String name) {
        ControllerRunner<?> runner = runners.get(name);
        Subscriptions of = runner == null ? null : subscriptions.get(runner);
        return of == null ? Set.of() : of.sets.stream().filter(SetMembers::primary).findFirst()
                .map(members -> members.source().namespaces()).orElse(Set.of());
    }

    /** From now on, namespace changes of this controller apply at once; one asked for before applies now. */
    private void followNamespaces(ControllerRunner<?> runner) {
        synchronized (namespaceChanges) {
            followingNamespaces.add(runner);
            if (wantedNamespaces.containsKey(runner)) {
                applyNamespaces(runner);
            }
        }
    }

    private void applyNamespaces(ControllerRunner<?> runner) {
        if (stopping.get() || runner.state() == ControllerState.FAILED || runner.state() == ControllerState.STOPPED) {
            return;
        }
        Set<String> wanted = wantedNamespaces.get(runner);
        Subscriptions of = subscriptionsOf(runner);
        Set<String> before = namespacesOf(runner.name());
        for (SetMembers<?> members : of.sets) {
            for (String namespace : members.source().namespaces()) {
                if (!wanted.contains(namespace)) {
                    members.source().remove(namespace).ifPresent(member -> {
                        of.primary.remove(member);
                        of.all.remove(member);
                        pool.release((Informer<?>) member);
                        observer.informerReleased((Informer<?>) member);
                    });
                }
            }
            for (String namespace : wanted) {
                if (!members.source().holds(namespace)) {
                    pool.start(join(runner, members, namespace), executor, scheduler);
                }
            }
        }
        if (!before.equals(wanted)) {
            LOG.info(() -> "Controller " + runner.name() + " now watches namespaces " + new java.util.TreeSet<>(wanted) + " (were "
                    + new java.util.TreeSet<>(before) + ")");
        }
    }

    private static long deadline(long begin, ControllerRunner<?> runner) {
        return begin + runner.definition().syncTimeout().toNanos();
    }

    /** Resolve the kinds of one controller and subscribe it to its informers. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void wire(ControllerRunner runner, long deadline) throws InterruptedException {
        ControllerDefinition definition = runner.definition();
        try {
            ResourceType primaryType = resolve(definition.kind(), runner, deadline);
            if (primaryType == null) {
                return;
            }
            // a namespace set applies to a namespaced primary and its namespaced dependencies; a cluster-scoped primary's
            // dependencies are watched in all namespaces
            boolean set = definition.namespaces() != null && primaryType.namespaced();
            EventSource primary = source(runner, primaryType, definition.namespace(), Selectors.labels(definition.labelSelector()),
                    definition.transformOf(definition.kind()), true, set);
            runner.attachPrimary(primary);
            // Dependencies are watched in the primary's scope without its selector, with their own (the owned kinds',
            // each @Watch's); a cluster-scoped primary watches its namespaced dependencies in all namespaces.
            String scope = primaryType.namespaced() ? definition.namespace() : null;
            for (Class<? extends KubernetesObject> owned : definition.owns()) {
                ResourceType type = resolve(owned, runner, deadline);
                if (type == null) {
                    return;
                }
                runner.attachOwned(source(runner, type, scope, definition.ownsSelectors(), definition.transformOf(owned), false, set));
            }
            for (WatchMapper watch : definition.watches()) {
                ResourceType type = resolve(watch.kind(), runner, deadline);
                if (type == null) {
                    return;
                }
                runner.attachWatch(watch.metadataOnly() ? source(runner, type.metadataOnly(), scope, watch.selectors(), null, false, set)
                        : source(runner, type, scope, watch.selectors(), definition.transformOf(watch.kind()), false, set), watch);
            }
            for (dev.mooring.engine.model.CacheIndex index : definition.indexes()) {
                // on the source that Context.cached(kind) reads: the first of that kind (the primary's, if it is the primary kind)
                runner.sources().stream().filter(source -> ((EventSource<?>) source).type().modelClass() == index.kind()).findFirst()
                        .ifPresent(source -> ((EventSource) source).addIndex(index.name(), index.description(), index.values()));
            }
        } catch (RuntimeException e) {
            // a transient failure reaches here only once the next attempt would start after the deadline
            runner.fail(e instanceof dev.mooring.api.client.KubernetesException failure && dev.mooring.engine.kube.Failures.isTransient(failure)
                    ? new IllegalStateException(e.getMessage() + " (retried until " + syncTimeout(runner) + " left no time for another"
                            + " attempt)", e) : e);
        }
    }

    /** The controller's sync timeout, with the property that sets it. */
    private static String syncTimeout(ControllerRunner<?> runner) {
        return "the controller's sync-timeout of " + runner.definition().syncTimeout().toMillis() / 1000.0 + " s (mooring.controller."
                + runner.name() + ".sync-timeout)";
    }

    /**
     * Discovery of one kind, retried with backoff on transient failures (no answer, 5xx, 429)
     * until the deadline; authorization failures and an unserved kind fail at once. Null when
     * stopping.
     */
    private <T extends KubernetesObject> ResourceType<T> resolve(Class<T> kind, ControllerRunner<?> runner, long deadline)
            throws InterruptedException {
        return types.resolveRetrying(kind, () -> !stopping.get() && runner.state() == ControllerState.STARTING, deadline, null,
                (e, backoff) -> LOG.log(Level.WARNING, "Discovery of {0} for controller {1} failed, retrying in {2} s: {3}",
                        new Object[] {kind.getSimpleName(), runner.name(), backoff.toMillis() / 1000.0, e.getMessage()}));
    }

    private void awaitSynced(ControllerRunner<?> runner, List<Informer<?>> informers, long deadline)
            throws InterruptedException {
        for (Informer<?> informer : informers) {
            if (runner.state() != ControllerState.STARTING || stopping.get()) {
                return;
            }
            Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
            if (!informer.awaitSynced(left) && informer.failure().isEmpty() && !stopping.get()) {
                runner.fail(new IllegalStateException("The initial list of " + informer.describe() + " did not complete within "
                        + syncTimeout(runner)));
            }
        }
    }

    /** Be told once, when the runtime fails (a controller failed, or {@link #fail} was called). */
    public void onFailure(Runnable listener) {
        failureListeners.add(listener);
    }

    /**
     * Fail the whole runtime (for example, leadership was lost): every controller stops at once
     * with {@code cause}, and the runtime stays failed.
     */
    public void fail(Throwable cause) {
        stopping.set(true); // every controller fails with this cause: none is merely stopped as a failed one's sibling
        runners.values().forEach(runner -> runner.fail(cause));
        pool.stopAll();
        if (runners.isEmpty()) {
            failures.add(cause.getMessage());
            notifyFailure();
        }
    }

    private void notifyFailure() {
        if (failed.compareAndSet(false, true)) {
            failureListeners.forEach(listener -> {
                try {
                    listener.run();
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "A failure listener failed", e);
                }
            });
        }
    }

    private void onFailure(ControllerRunner<?> failed) {
        failures.add("controller " + failed.name() + ": " + failed.failure().map(Throwable::getMessage).orElse("failed"));
        notifyFailure();
        if (stopping.compareAndSet(false, true)) {
            LOG.severe(() -> "Controller " + failed.name() + " failed; stopping its sibling controllers. Mooring stays"
                    + " failed until the application or the server is restarted.");
            executor.submit(() -> {
                runners.values().stream().filter(runner -> runner != failed).forEach(ControllerRunner::stop);
                pool.stopAll();
            });
        }
    }

    /** Stop every controller (draining accepted work), then the informers. */
    public void stop() {
        stopping.set(true);
        Future<?> running = startup;
        if (running != null) {
            running.cancel(true);
        }
        // every queue closes at once, then each controller drains for its own shutdownTimeout from
        // this moment: the stop takes the longest timeout, not their sum, and no controller takes new
        // work while another drains
        long begin = System.nanoTime();
        List<ControllerRunner<?>> stopped = runners.values().stream().filter(ControllerRunner::beginStop).toList();
        stopped.forEach(runner -> runner.finishStop(begin));
        pool.stopAll();
    }

    /**
     * Wait until the worker threads of every controller have left their passes, after
     * {@link #stop()} or {@link #fail(Throwable)}.
     *
     * @return false if some still ran after {@code timeout}, which is then logged with the controller
     */
    public boolean awaitStopped(Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        boolean all = true;
        for (ControllerRunner<?> runner : runners.values()) {
            try {
                if (!runner.awaitWorkersStopped(Duration.ofNanos(Math.max(0, end - System.nanoTime())))) {
                    all = false;
                    LOG.warning(() -> "A reconcile of controller " + runner.name() + " still runs " + timeout.toSeconds()
                            + " s after its controller stopped: it ignores interrupts");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return all;
    }

    /** The definitions of the controllers, in the order they were added (as the engine completed them). */
    List<ControllerDefinition> definitions() {
        return runners.values().stream().<ControllerDefinition>map(ControllerRunner::definition).toList();
    }

    /** The longest shutdownTimeout of the controllers (zero without controllers). */
    public Duration longestShutdownTimeout() {
        return runners.values().stream().map(runner -> runner.definition().shutdownTimeout()).max(Duration::compareTo)
                .orElse(Duration.ZERO);
    }

    /** Ask controller {@code name} to reconcile {@code key}. */
    public void enqueue(String name, ObjectKey key) {
        ControllerRunner<?> runner = runners.get(name);
        if (runner == null) {
            throw new IllegalArgumentException("No controller named '" + name + "'; controllers: " + runners.keySet());
        }
        runner.enqueue(key);
    }

    /** Snapshots of every controller, in declaration order. */
    public List<ControllerStatus> statuses() {
        return runners.values().stream().map(ControllerRunner::status).toList();
    }

    /** True while no controller failed. */
    public boolean healthy() {
        return failures.isEmpty();
    }

    /** True when healthy and every controller has synced and runs its workers. */
    public boolean ready() {
        return healthy() && runners.values().stream().allMatch(runner -> runner.state() == ControllerState.READY);
    }

    /** The fatal failures, each naming its controller and cause. */
    public List<String> failures() {
        return List.copyOf(failures);
    }

    /** Relists caused by expired watch history, over all informers. */
    public long relists() {
        return pool.relists();
    }

    /** The informers of the controllers now (those of a namespace that left a set are gone). */
    public List<Informer<?>> informers() {
        return pool.informers();
    }

    /**
     * The connection of each informer, for the health checks' data: {@code connected}, or since
     * when it is not and why, or its failure. An outage of the API server is reported, not a DOWN:
     * an unready pod would leave the webhook Service without endpoints, and a dead one would not
     * come back sooner than the API server.
     */
    public Map<String, String> connections() {
        Map<String, String> connections = new LinkedHashMap<>();
        for (Informer<?> informer : informers()) {
            java.util.Optional<Throwable> failure = informer.failure();
            connections.put("informer " + informer.describe(), failure.isPresent() ? "failed: " + failure.get().getMessage()
                    : informer.connected() ? "connected"
                    : "disconnected" + (informer.lastContactMillis() == 0 ? "" : " since "
                    + java.time.Instant.ofEpochMilli(informer.lastContactMillis())) + ": " + informer.lastProblem());
        }
        return connections;
    }

    /** Distinct informers (watch subscriptions) of this runtime. */
    public int informerCount() {
        return pool.count();
    }
}
