package dev.mooring.runtime;

import dev.mooring.api.LifecycleEvent;
import dev.mooring.api.Reconciler;
import dev.mooring.engine.Engine;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.kube.Failures;
import dev.mooring.engine.model.ControllerDefinition;
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

    private final OperatorState state = new OperatorState();
    private final List<CreationalContext<?>> contexts = new ArrayList<>();
    private LifecycleEvents events;
    /** The poll of the namespace sets' properties, while running; null without a controller that watches a set. */
    private volatile java.util.concurrent.ScheduledFuture<?> namespacePolls;

    @PostConstruct
    void start() {
        events = new LifecycleEvents(lifecycle::fire);
        List<RuntimeException> problems = deploymentProblems(extension, admissionExtension);
        if (!problems.isEmpty()) {
            // deployed but failed: liveness DOWN naming each problem, nothing started
            for (RuntimeException problem : problems) {
                state.failed(problem.getMessage());
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
        OperatorRuntime runtime;
        List<ControllerDefinition> definitions = new ArrayList<>();
        try {
            KubernetesConnection kubernetes = connection.get();
            String namespace = config.namespace();
            coordinator = new ReplicaCoordinator(config.replicaMode(), kubernetes.requests(), threads.loops(), events);
            Engine.Builder engine = Engine.builder(coordinator.guard(kubernetes.requests()), kubernetes.watches())
                    .threads(threads.loops(), threads.timers()).requestScope(requestScopes).retry(config.retry()).observer(metrics)
                    .readYourWrites(config.readYourWrites()).operatorNamespace(namespace);
            coordinator.shards().ifPresent(engine::shards);
            for (ReconcilerExtension.Discovered controller : discovered) {
                definitions.add(add(engine, controller, namespace));
            }
            runtime = engine.build();
            state.running(runtime, coordinator);
            metrics.register(runtime, definitions, state::ready, coordinator.elector().orElse(null), coordinator.shards().orElse(null));
        } catch (RuntimeException e) {
            cannotStart(e);
            return;
        }
        coordinator.start(runtime);
        NamespaceFollower namespaces = new NamespaceFollower(definitions, config::text, runtime::watchNamespaces);
        if (namespaces.following()) {
            namespacePolls = namespaces.start(threads.timers(), config.namespacesPollInterval());
        }
    }

    private void cannotStart(RuntimeException e) {
        state.failed(Failures.describe(e));
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
        java.util.concurrent.ScheduledFuture<?> polls = namespacePolls;
        if (polls != null) {
            polls.cancel(false);
        }
        ReplicaCoordinator running = state.replicas();
        if (running != null) {
            running.stop(); // drains, ends the leader term, gives the Lease or the shards up, then SHUTDOWN
        } else {
            events.fire(LifecycleEvent.Type.SHUTDOWN, LifecycleEvent.Scope.PROCESS, null, null);
        }
        contexts.forEach(CreationalContext::release);
    }

    /** What the health checks, the REST resources, the metrics and {@code Controllers} read of the running operator. */
    public OperatorState state() {
        return state;
    }
}
