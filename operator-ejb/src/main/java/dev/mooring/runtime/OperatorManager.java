package dev.mooring.runtime;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.engine.Engine;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerStatus;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Owns the controllers of the deployment: creates them from the reconciler beans when the
 * application starts, and stops them (draining accepted work) when it stops.
 *
 * <p>Starting never blocks the deployment: kinds are resolved and listed on managed threads,
 * and readiness reports when every controller has synced. A failure to connect or a fatal
 * controller error keeps the application deployed, marks the runtime failed (liveness DOWN) and
 * is logged with its cause.
 */
@Singleton
@Startup
@DependsOn("MooringThreads")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
// no container transaction around its lifecycle: Mooring uses none, and InstantOn refuses a checkpoint after one began
@jakarta.ejb.TransactionManagement(jakarta.ejb.TransactionManagementType.BEAN)
public class OperatorManager {

    private static final Logger LOG = Logger.getLogger(OperatorManager.class.getName());

    @Inject
    ReconcilerExtension extension;

    @Inject
    AdmissionExtension admissionExtension;

    @Inject
    BeanManager beanManager;

    @Inject
    MooringConfig config;

    @Inject
    Instance<KubernetesConnection> connection;

    @Inject
    RequestScopes requestScopes;

    @Inject
    MooringThreads threads;

    @Inject
    jakarta.enterprise.event.Event<dev.mooring.api.LifecycleEvent> lifecycle;

    @Inject
    RuntimeMetrics metrics;

    @Inject
    CheckpointRestore checkpoint;

    private final List<String> startFailures = new CopyOnWriteArrayList<>();
    private final List<CreationalContext<?>> contexts = new ArrayList<>();
    private final java.util.concurrent.atomic.AtomicBoolean leaderTerm = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicBoolean endingTerm = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicBoolean processFailed = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile OperatorRuntime runtime;
    private volatile dev.mooring.engine.replica.LeaderElector elector;
    private volatile dev.mooring.engine.replica.ShardCoordinator shards;

    @PostConstruct
    void start() {
        List<RuntimeException> problems = deploymentProblems(extension, admissionExtension);
        if (!problems.isEmpty()) {
            // deployed but failed: liveness DOWN naming each problem, nothing started
            for (RuntimeException problem : problems) {
                startFailures.add(problem.getMessage());
                LOG.severe("Mooring cannot start: " + problem.getMessage());
            }
            failProcess(problems.get(0));
            return;
        }
        List<ReconcilerExtension.Discovered> discovered = extension.discovered();
        if (discovered.isEmpty()) {
            LOG.warning("Mooring found no @Controller reconciler beans in this application");
            return;
        }
        // client-java's JSON (its Gson with an adapter for each of ~1000 models) loads its classes on a thread of its own
        // while this one reads the kubeconfig and sets up TLS: the API client needs it at the end of its set-up, the
        // informers to decode their lists (before a checkpoint too: the classes loaded are in it, no connection is)
        threads.loops().submit(io.kubernetes.client.openapi.JSON::getGson);
        try {
            checkpoint.startNowOrOnRestore("the controllers", () -> begin(discovered));
        } catch (RuntimeException e) {
            startFailures.add(rootMessage(e));
            LOG.log(Level.SEVERE, "Mooring cannot start its controllers: " + rootMessage(e), e);
            failProcess(e);
        }
    }

    /** The configuration problems of the controllers and the webhooks, in that order. */
    static List<RuntimeException> deploymentProblems(ReconcilerExtension controllers, AdmissionExtension webhooks) {
        List<RuntimeException> problems = new ArrayList<>(controllers.problems());
        problems.addAll(webhooks.problems());
        return problems;
    }

    /** Connects, builds the controllers and starts them (or the election or shard coordination that starts them). */
    private void begin(List<ReconcilerExtension.Discovered> discovered) {
        try {
            KubernetesConnection kubernetes = connection.get();
            String namespace = config.namespace();
            dev.mooring.engine.kube.KubeHttp requests = kubernetes.requests();
            if (config.leaderElectionEnabled()) {
                elector = new dev.mooring.engine.replica.LeaderElector(kubernetes.requests(), config.leaderElection());
                // every write of the controllers (objects, status, Events) is checked against the leadership by this
                // replica's own monotonic clock just before it is sent: a leader paused past its renew deadline (a long
                // GC, SIGSTOP, a partition) sends nothing when it resumes, before its elector notices the loss
                dev.mooring.engine.replica.LeaderElector election = elector;
                requests = requests.guardWrites(election::isLeader, "this replica's leadership of Lease "
                        + election.settings().namespace() + "/" + election.settings().name() + " expired (renew deadline "
                        + election.settings().renewDeadline().toSeconds() + " s passed without a renewal)");
            }
            Engine.Builder engine = Engine.builder(requests, kubernetes.watches()).threads(threads.loops(), threads.timers())
                    .requestScope(requestScopes).retry(config.retry()).observer(metrics).operatorNamespace(namespace);
            int shardCount = config.shards();
            if (shardCount > 0) {
                // every replica active, each passing (and writing for) the keys of the shards whose Leases it holds
                shards = new dev.mooring.engine.replica.ShardCoordinator(kubernetes.requests(),
                        new dev.mooring.engine.replica.ShardSettings(config.leaderElection(), shardCount), threads.loops());
                engine.shards(shards);
            }
            List<ControllerDefinition> definitions = new ArrayList<>();
            for (ReconcilerExtension.Discovered controller : discovered) {
                definitions.add(add(engine, controller, namespace));
            }
            runtime = engine.build();
            metrics.register(runtime, definitions, this::ready, elector, shards);
        } catch (RuntimeException e) {
            startFailures.add(rootMessage(e));
            LOG.log(Level.SEVERE, "Mooring cannot start its controllers: " + rootMessage(e), e);
            failProcess(e);
            return;
        }
        OperatorRuntime started = runtime;
        started.onFailure(() -> {
            endLeaderTerm(dev.mooring.api.LifecycleEvent.Type.FAILURE, null);
            if (!endingTerm.get()) {
                failProcess(null); // a lost term reports the process failure itself, after the leader event
            }
            if (elector != null) {
                // a failed leader gives up its Lease, so that a healthy standby can take over
                threads.loops().submit(() -> elector.stop(elector.settings().renewDeadline()));
            }
            if (shards != null) {
                // and a failed replica its shards, so that the others take them at once
                threads.loops().submit(() -> shards.stop(shards.settings().election().renewDeadline()));
            }
        });
        fire(dev.mooring.api.LifecycleEvent.Type.STARTUP, dev.mooring.api.LifecycleEvent.Scope.PROCESS, null);
        if (elector == null) {
            started.start();
            if (shards != null) {
                threads.loops().submit(this::coordinate);
            }
        } else {
            if (config.warmStandby()) {
                // a warm standby: informers synced and queues filled while it waits, so that it reconciles the
                // moment it leads, without listing again; no pass runs (nothing is written) before then
                started.warmUp();
            }
            threads.loops().submit(this::elect);
        }
    }

    /** The election loop: start the controllers when elected; on a loss stop them, then report it. */
    private void elect() {
        dev.mooring.engine.replica.LeaderElector running = elector;
        try {
            running.run(new dev.mooring.engine.replica.LeaderElector.Leadership() {
                @Override
                public void acquired() {
                    leaderTerm.set(true);
                    fire(dev.mooring.api.LifecycleEvent.Type.LEADERSHIP_ACQUIRED, dev.mooring.api.LifecycleEvent.Scope.LEADER, null);
                    runtime.start();
                }

                @Override
                public void lost(dev.mooring.engine.replica.LeaderElector.LeadershipLost cause) {
                    endLeaderTerm(dev.mooring.api.LifecycleEvent.Type.LEADERSHIP_LOST, cause);
                }
            });
        } catch (RuntimeException e) {
            startFailures.add("leader election: " + rootMessage(e));
            LOG.log(Level.SEVERE, "Leader election failed: " + rootMessage(e), e);
            endLeaderTerm(dev.mooring.api.LifecycleEvent.Type.FAILURE, e);
            runtime.fail(e);
            failProcess(e);
        }
    }

    /** The shard coordination loop, until the stop; a fatal error (such as no right to write Leases) fails the runtime. */
    private void coordinate() {
        try {
            shards.run();
        } catch (RuntimeException e) {
            startFailures.add("sharding: " + rootMessage(e));
            LOG.log(Level.SEVERE, "Shard coordination failed: " + rootMessage(e), e);
            runtime.fail(e);
            failProcess(e);
        }
    }

    /** Ends the leader term once: the leader-scope exit event (after the workers stopped, before the release). */
    private void endLeaderTerm(dev.mooring.api.LifecycleEvent.Type type, Throwable error) {
        if (leaderTerm.getAndSet(false)) {
            boolean lost = type == dev.mooring.api.LifecycleEvent.Type.LEADERSHIP_LOST;
            if (type != dev.mooring.api.LifecycleEvent.Type.SHUTDOWN && runtime != null) {
                endingTerm.set(lost);
                runtime.fail(error != null ? error : new IllegalStateException("leadership ended"));
            }
            if (runtime != null) {
                // observers clean up after the workers: wait until their threads left the passes
                runtime.awaitStopped(runtime.longestShutdownTimeout());
            }
            fire(type, dev.mooring.api.LifecycleEvent.Scope.LEADER, error);
            if (lost) {
                failProcess(error); // the inner scope ends first, then the process fails (a lost leader restarts)
            }
        }
    }

    /** Fires the process-scope FAILURE event, once. */
    private void failProcess(Throwable error) {
        if (processFailed.compareAndSet(false, true)) {
            fire(dev.mooring.api.LifecycleEvent.Type.FAILURE, dev.mooring.api.LifecycleEvent.Scope.PROCESS, error);
        }
    }

    private void fire(dev.mooring.api.LifecycleEvent.Type type, dev.mooring.api.LifecycleEvent.Scope scope, Throwable error) {
        try {
            String identity = scope == dev.mooring.api.LifecycleEvent.Scope.LEADER && elector != null
                    ? elector.settings().identity() : null;
            lifecycle.fire(new dev.mooring.api.LifecycleEvent(type, scope, identity, error));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "A LifecycleEvent observer failed on " + type + " (" + scope + ")", e);
        }
    }

    /** Adds the controller of a discovered bean to the engine; returns its definition. */
    private ControllerDefinition add(Engine.Builder engine, ReconcilerExtension.Discovered controller, String operatorNamespace) {
        Bean<?> bean = controller.bean();
        CreationalContext<?> context = beanManager.createCreationalContext(bean);
        contexts.add(context);
        Object reference = beanManager.getReference(bean, contractType(bean), context);
        ControllerDefinition definition = controller.definition().withNamespace(operatorNamespace);
        engine.controller(definition, reference, controller.stagePlan(), controller.watchMethods(), controller.indexMethods(),
                controller.transformMethods());
        return definition;
    }

    /** The bean type {@code Reconciler<T>}, {@code Staged<T>} or {@code DesiredStateReconciler<T>} to look the bean up with. */
    private static Type contractType(Bean<?> bean) {
        for (Class<?> contract : dev.mooring.engine.model.ControllerOptions.CONTRACTS) {
            ParameterizedType type = dev.mooring.engine.model.ControllerOptions.typed(bean.getTypes(), contract);
            if (type != null) {
                return type;
            }
        }
        return null;
    }

    @PreDestroy
    void stop() {
        OperatorRuntime running = runtime;
        if (running != null) {
            LOG.info("Mooring is stopping its controllers");
            running.stop(); // while the elector keeps renewing
        }
        endLeaderTerm(dev.mooring.api.LifecycleEvent.Type.SHUTDOWN, null);
        if (shards != null) {
            shards.stop(shards.settings().election().renewDeadline()); // after the drain: the shards are free at once
        }
        if (elector != null) {
            elector.stop(elector.settings().renewDeadline()); // then the Lease is released
        }
        fire(dev.mooring.api.LifecycleEvent.Type.SHUTDOWN, dev.mooring.api.LifecycleEvent.Scope.PROCESS, null);
        contexts.forEach(CreationalContext::release);
    }

    /** Snapshots of every controller. */
    public List<ControllerStatus> controllers() {
        OperatorRuntime running = runtime;
        return running == null ? List.of() : running.statuses();
    }

    /** True while no fatal failure happened. */
    public boolean healthy() {
        OperatorRuntime running = runtime;
        return startFailures.isEmpty() && (running == null || running.healthy());
    }

    /** The fatal failures so far, each naming the controller (or the connection) and the cause. */
    public List<String> failures() {
        List<String> all = new ArrayList<>(startFailures);
        OperatorRuntime running = runtime;
        if (running != null) {
            all.addAll(running.failures());
        }
        return all;
    }

    /**
     * True when the runtime is healthy, this replica leads (with leader election) and every
     * controller has synced and is reconciling.
     */
    public boolean ready() {
        OperatorRuntime running = runtime;
        return healthy() && (elector == null || elector.isLeader()) && (shards == null || shards.connected())
                && (running == null || running.ready());
    }

    /**
     * Readiness: {@link #ready()} on the leader (or without election); on a standby, healthy and
     * in contact with the API server through the election, so able to take over. Leadership is
     * reported in the check's data and the {@code leader_election_master_status} gauge, never as
     * DOWN: a Deployment's rolling update waits for readiness, and a standby that never became
     * ready would never replace the old leader.
     */
    public boolean readyToServe() {
        dev.mooring.engine.replica.LeaderElector running = elector;
        if (running != null && !running.isLeader() && !leaderTerm.get()) {
            return healthy() && running.connected();
        }
        return ready();
    }

    /** True while this replica leads, or always without election; null-free for health data. */
    public boolean leader() {
        dev.mooring.engine.replica.LeaderElector running = elector;
        return running == null || running.isLeader();
    }

    /**
     * True after the initial sync on the leader (or without election); on a standby once the
     * election runs and the API server answered it (so readiness, which asks the same contact, is
     * UP from the start on: no DOWN answer between started and ready).
     */
    public boolean started() {
        if (!healthy()) {
            return false;
        }
        if (elector != null && !elector.isLeader()) {
            return elector.electing() && elector.connected() && !leaderTerm.get();
        }
        return ready();
    }

    /** Sharding state for health data: the shards this replica owns and the members it sees; null without sharding. */
    public String sharding() {
        dev.mooring.engine.replica.ShardCoordinator running = shards;
        if (running == null) {
            return null;
        }
        return "shards " + running.owned() + " of " + running.settings().shards() + " (" + running.settings().election().identity()
                + "; members " + running.members() + ")";
    }

    /** Leader election state for health data: null without election. */
    public String leadership() {
        dev.mooring.engine.replica.LeaderElector running = elector;
        if (running == null) {
            return null;
        }
        return (running.isLeader() ? "leader" : "standby") + " (" + running.settings().identity() + ", Lease "
                + running.settings().namespace() + "/" + running.settings().name() + ")";
    }

    /**
     * The connection of each informer, for the health checks' data: {@code connected}, or since
     * when it is not and why. An outage of the API server is reported, not a DOWN: an unready
     * pod would leave the webhook Service without endpoints, and a dead one would not come back
     * sooner than the API server.
     */
    public java.util.Map<String, String> connections() {
        OperatorRuntime running = runtime;
        java.util.Map<String, String> connections = new java.util.LinkedHashMap<>();
        if (running != null) {
            for (dev.mooring.engine.Informer<?> informer : running.informers()) {
                java.util.Optional<Throwable> failure = informer.failure();
                connections.put("informer " + informer.describe(), failure.isPresent() ? "failed: " + failure.get().getMessage()
                        : informer.connected() ? "connected"
                        : "disconnected" + (informer.lastContactMillis() == 0 ? "" : " since "
                        + java.time.Instant.ofEpochMilli(informer.lastContactMillis())) + ": " + informer.lastProblem());
            }
        }
        return connections;
    }

    /** Distinct informers (watch subscriptions). */
    public int informerCount() {
        OperatorRuntime running = runtime;
        return running == null ? 0 : running.informerCount();
    }

    /** Relists caused by expired watch history (410 Gone), over all informers. */
    public long relists() {
        OperatorRuntime running = runtime;
        return running == null ? 0 : running.relists();
    }

    /** See {@link dev.mooring.api.Controllers#enqueue}. */
    public void enqueue(String controllerName, ObjectKey key) {
        OperatorRuntime running = runtime;
        if (running == null) {
            throw new IllegalStateException("Mooring's controllers are not running: " + failures());
        }
        running.enqueue(controllerName, key);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
    }
}
