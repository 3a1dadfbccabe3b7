package dev.mooring.runtime;

import dev.mooring.api.LifecycleEvent;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.engine.Engine;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.kube.Failures;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.engine.replica.LifecycleEvents;
import dev.mooring.engine.replica.ReplicaCoordinator;
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
 * The container's side of the controllers: builds them from the reconciler beans when the
 * application starts and hands them to a {@link ReplicaCoordinator}, which starts them as the
 * replica mode says (at once, once elected, or on the shards held) and stops them, draining the
 * accepted work, when the application stops. Lifecycle events go to CDI observers.
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
    jakarta.enterprise.event.Event<LifecycleEvent> lifecycle;

    @Inject
    RuntimeMetrics metrics;

    @Inject
    CheckpointRestore checkpoint;

    private final List<String> startFailures = new CopyOnWriteArrayList<>();
    private final List<CreationalContext<?>> contexts = new ArrayList<>();
    private LifecycleEvents events;
    private volatile OperatorRuntime runtime;
    private volatile ReplicaCoordinator replicas;

    @PostConstruct
    void start() {
        events = new LifecycleEvents(lifecycle::fire);
        List<RuntimeException> problems = deploymentProblems(extension, admissionExtension);
        if (!problems.isEmpty()) {
            // deployed but failed: liveness DOWN naming each problem, nothing started
            for (RuntimeException problem : problems) {
                startFailures.add(problem.getMessage());
                LOG.severe("Mooring cannot start: " + problem.getMessage());
            }
            events.processFailed(problems.get(0));
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
            cannotStart(e);
        }
    }

    /** The configuration problems of the controllers and the webhooks, in that order. */
    static List<RuntimeException> deploymentProblems(ReconcilerExtension controllers, AdmissionExtension webhooks) {
        List<RuntimeException> problems = new ArrayList<>(controllers.problems());
        problems.addAll(webhooks.problems());
        return problems;
    }

    /** Connects, builds the controllers and hands them to the replica coordination, which starts them as its mode says. */
    private void begin(List<ReconcilerExtension.Discovered> discovered) {
        ReplicaCoordinator coordinator;
        try {
            KubernetesConnection kubernetes = connection.get();
            String namespace = config.namespace();
            coordinator = new ReplicaCoordinator(config.replicaMode(), kubernetes.requests(), threads.loops(), events);
            Engine.Builder engine = Engine.builder(coordinator.guard(kubernetes.requests()), kubernetes.watches())
                    .threads(threads.loops(), threads.timers()).requestScope(requestScopes).retry(config.retry()).observer(metrics)
                    .operatorNamespace(namespace);
            coordinator.shards().ifPresent(engine::shards);
            List<ControllerDefinition> definitions = new ArrayList<>();
            for (ReconcilerExtension.Discovered controller : discovered) {
                definitions.add(add(engine, controller, namespace));
            }
            runtime = engine.build();
            replicas = coordinator;
            metrics.register(runtime, definitions, this::ready, coordinator.elector().orElse(null), coordinator.shards().orElse(null));
        } catch (RuntimeException e) {
            cannotStart(e);
            return;
        }
        coordinator.start(runtime);
    }

    private void cannotStart(RuntimeException e) {
        startFailures.add(Failures.describe(e));
        LOG.log(Level.SEVERE, "Mooring cannot start its controllers: " + Failures.describe(e), e);
        events.processFailed(e);
    }

    /** Adds the controller of a discovered bean to the engine; returns its definition. */
    private ControllerDefinition add(Engine.Builder engine, ReconcilerExtension.Discovered controller, String operatorNamespace) {
        Bean<?> bean = controller.bean();
        CreationalContext<?> context = beanManager.createCreationalContext(bean);
        contexts.add(context);
        Object reference = beanManager.getReference(bean, contractType(bean), context);
        ControllerDefinition definition = controller.definition().withNamespace(operatorNamespace);
        engine.controller(definition, reference, controller.stagePlan(), controller.methods());
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
        ReplicaCoordinator running = replicas;
        if (running != null) {
            running.stop(); // drains, ends the leader term, gives the Lease or the shards up, then SHUTDOWN
        } else {
            events.fire(LifecycleEvent.Type.SHUTDOWN, LifecycleEvent.Scope.PROCESS, null, null);
        }
        contexts.forEach(CreationalContext::release);
    }

    /** Snapshots of every controller. */
    public List<ControllerStatus> controllers() {
        OperatorRuntime running = runtime;
        return running == null ? List.of() : running.statuses();
    }

    /** True while no fatal failure happened. */
    public boolean healthy() {
        ReplicaCoordinator running = replicas;
        return startFailures.isEmpty() && (running == null || running.healthy());
    }

    /** The fatal failures so far, each naming the controller (or the connection, the election, the sharding) and the cause. */
    public List<String> failures() {
        List<String> all = new ArrayList<>(startFailures);
        ReplicaCoordinator coordination = replicas;
        if (coordination != null) {
            all.addAll(coordination.failures());
            all.addAll(runtime.failures());
        }
        return all;
    }

    /** See {@link ReplicaCoordinator#ready()}; without controllers, healthy. */
    public boolean ready() {
        ReplicaCoordinator running = replicas;
        return startFailures.isEmpty() && (running == null || running.ready());
    }

    /** See {@link ReplicaCoordinator#readyToServe()}. */
    public boolean readyToServe() {
        ReplicaCoordinator running = replicas;
        return startFailures.isEmpty() && (running == null || running.readyToServe());
    }

    /** True while this replica leads, or always without election; null-free for health data. */
    public boolean leader() {
        ReplicaCoordinator running = replicas;
        return running == null || running.leader();
    }

    /** See {@link ReplicaCoordinator#started()}. */
    public boolean started() {
        ReplicaCoordinator running = replicas;
        return startFailures.isEmpty() && (running == null || running.started());
    }

    /** Sharding state for health data: the shards this replica owns and the members it sees; null without sharding. */
    public String sharding() {
        ReplicaCoordinator running = replicas;
        return running == null ? null : running.sharding();
    }

    /** Leader election state for health data: null without election. */
    public String leadership() {
        ReplicaCoordinator running = replicas;
        return running == null ? null : running.leadership();
    }

    /** See {@link OperatorRuntime#connections()}; empty before the controllers are built. */
    public java.util.Map<String, String> connections() {
        OperatorRuntime running = runtime;
        return running == null ? java.util.Map.of() : running.connections();
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
}
