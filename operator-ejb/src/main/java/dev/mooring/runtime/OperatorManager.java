package dev.mooring.runtime;

import dev.mooring.api.Reconciler;
import dev.mooring.runtime.internal.ControllerDefinition;
import dev.mooring.runtime.internal.ControllerRunner;
import dev.mooring.runtime.internal.ControllerStatus;
import dev.mooring.runtime.internal.LiveResourceClient;
import dev.mooring.runtime.internal.ResourceTypes;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Owns every controller of the deployment: creates one per reconciler bean when the
 * application starts, and stops them (draining accepted work) when it stops.
 *
 * <p>Starting never blocks the deployment: kinds are resolved and listed on managed threads, and
 * readiness reports when every controller has synced. A failure to connect or a fatal
 * controller error keeps the application deployed, marks the runtime failed (liveness DOWN) and
 * is logged with its cause.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class OperatorManager {

    private static final Logger LOG = Logger.getLogger(OperatorManager.class.getName());

    @Inject
    ReconcilerExtension extension;

    @Inject
    BeanManager beanManager;

    @Inject
    MooringConfig config;

    @Inject
    jakarta.enterprise.inject.Instance<KubernetesConnection> connection;

    @Resource
    ManagedExecutorService executor;

    private final List<ControllerRunner<?>> controllers = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final List<CreationalContext<?>> contexts = new ArrayList<>();

    @PostConstruct
    void start() {
        List<ControllerDefinition> definitions = extension.definitions();
        if (definitions.isEmpty()) {
            LOG.warning("Mooring found no @Controller reconciler beans in this application");
            return;
        }
        KubernetesConnection kubernetes;
        try {
            kubernetes = connection.get();
            kubernetes.requests();
        } catch (RuntimeException e) {
            failures.add(rootMessage(e));
            LOG.log(Level.SEVERE, "Mooring cannot connect to Kubernetes; no controller runs: " + rootMessage(e), e);
            return;
        }
        ResourceTypes types = new ResourceTypes(kubernetes.requests());
        LiveResourceClient client = new LiveResourceClient(kubernetes.requests(), types);
        String operatorNamespace = config.namespace();
        for (ControllerDefinition definition : definitions) {
            ControllerRunner<?> runner = create(definition, operatorNamespace, kubernetes, types, client);
            controllers.add(runner);
            runner.start(executor);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private ControllerRunner<?> create(ControllerDefinition definition, String operatorNamespace,
            KubernetesConnection kubernetes, ResourceTypes types, LiveResourceClient client) {
        CreationalContext<?> context = beanManager.createCreationalContext(definition.bean());
        contexts.add(context);
        java.lang.reflect.Type reconcilerType = definition.bean().getTypes().stream()
                .filter(type -> type instanceof java.lang.reflect.ParameterizedType parameterized
                        && parameterized.getRawType() == Reconciler.class)
                .findFirst().orElseThrow();
        Reconciler reconciler = (Reconciler) beanManager.getReference(definition.bean(), reconcilerType, context);
        ControllerDefinition scoped = new ControllerDefinition(definition.name(), definition.kind(),
                definition.namespaceOr(operatorNamespace), definition.labelSelector(), definition.workers(),
                definition.bean());
        return new ControllerRunner(scoped, (Class<KubernetesObject>) definition.kind(), reconciler, kubernetes.requests(),
                kubernetes.watches(), types, client, failed -> onControllerFailure((ControllerRunner<?>) failed));
    }

    private void onControllerFailure(ControllerRunner<?> failed) {
        failures.add("controller " + failed.name() + ": " + failed.status().failure());
    }

    @PreDestroy
    void stop() {
        LOG.info("Mooring is stopping " + controllers.size() + " controller(s)");
        for (ControllerRunner<?> controller : controllers) {
            controller.stop();
        }
        contexts.forEach(CreationalContext::release);
    }

    /** Snapshots of every controller. */
    public List<ControllerStatus> controllers() {
        List<ControllerStatus> statuses = new ArrayList<>();
        controllers.forEach(controller -> statuses.add(controller.status()));
        return statuses;
    }

    /** True while no fatal failure happened. */
    public boolean healthy() {
        return failures.isEmpty();
    }

    /** The fatal failures so far, each naming the controller (or the connection) and the cause. */
    public List<String> failures() {
        return List.copyOf(failures);
    }

    /** True when the runtime is healthy and every controller has synced and is reconciling. */
    public boolean ready() {
        return healthy() && controllers.stream().allMatch(controller -> controller.status().ready());
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
    }
}
