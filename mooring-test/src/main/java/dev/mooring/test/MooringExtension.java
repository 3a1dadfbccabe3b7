package dev.mooring.test;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.api.CustomResource;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Staged;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.engine.Engine;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerOptions;
import dev.mooring.engine.model.StagePlan;
import dev.mooring.manifests.Crds;
import dev.mooring.manifests.Installer;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.Config;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs your controllers against a real Kubernetes API server in a plain JUnit 5 test, without
 * Liberty — as controller-runtime's envtest runs a manager in process. Register it in a static
 * field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final MooringExtension mooring = MooringExtension.embedded(new GreetingReconciler());
 * }</pre>
 *
 * <p>Before the class's tests: Mooring's local API server is started (once per JVM, on free
 * ports; or the cluster of {@code MOORING_KUBECONFIG}, else {@code MOORING_TEST_KUBECONFIG}, is
 * used), a namespace of the class's own is created, the CRDs of the controllers'
 * {@code @CustomResource} kinds (and the files of {@link #withManifests}) are applied and
 * established, and the controllers run there with Mooring's engine, as they would in Liberty:
 * the same options, informers, work queues, retries, stages, children and status writes. After
 * them the controllers stop. The controllers are the instances given: there is no CDI, so
 * anything they inject must be set by the test. The namespace is where they watch, whatever
 * their {@code @Controller} says about namespaces, except for cluster-scoped kinds.
 *
 * <p>Admission beans given to {@link #withAdmission} are served over HTTPS in the test's JVM
 * and registered with the API server for the test's namespace, so that a test proves a denial
 * or a mutation through the API server; test a method alone, faster, with
 * {@link TestAdmissionRequest}.
 */
public final class MooringExtension implements BeforeAllCallback, AfterAllCallback {

    private final List<Object> controllers;
    private ApiClient api;
    private String namespace;
    private OperatorRuntime runtime;
    private ExecutorService executor;
    private ScheduledExecutorService scheduler;
    private ResourceClient client;
    private MooringCluster cluster;
    private volatile java.time.Clock clock = java.time.Clock.systemUTC();
    private final List<java.nio.file.Path> manifests = new ArrayList<>();
    private final List<Object> admissionBeans = new ArrayList<>();
    private AdmissionServer admission;

    private MooringExtension(List<Object> controllers) {
        this.controllers = List.copyOf(controllers);
    }

    /**
     * An extension that runs these controller instances.
     *
     * @throws IllegalArgumentException when one is not a {@code @Controller} reconciler
     */
    public static MooringExtension embedded(Object... controllers) {
        for (Object controller : controllers) {
            if (!(controller instanceof Reconciler<?>) && !(controller instanceof Staged<?>)
                    && !(controller instanceof dev.mooring.api.DesiredStateReconciler<?>)) {
                throw new IllegalArgumentException(controller.getClass().getName()
                        + " is none of Reconciler, Staged and DesiredStateReconciler");
            }
            ControllerOptions.offline(controller.getClass(), "default").orElseThrow(() -> new IllegalArgumentException(
                    controller.getClass().getName() + " is not annotated @Controller"));
        }
        return new MooringExtension(List.of(controllers));
    }

    /**
     * The clock of the controllers' passes: the times they write (a condition's {@code
     * lastTransitionTime}) come from it, such as a {@link TestClock} the test moves. The work
     * queues' delays and the API server's own times are not affected. Call it where the
     * extension is made, before the class's tests start.
     *
     * @return this extension
     */
    public MooringExtension withClock(java.time.Clock clock) {
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * YAML files to apply before the controllers start, after the namespace and together with
     * the CRDs of the controllers' kinds: CRDs a test needs beside those (a kind another
     * operator owns), and objects the controllers should find at start. A namespaced object
     * without a namespace goes into the test's namespace; every CRD is awaited until {@code
     * Established}. The files are read with the limits of a manifests folder; an unreadable
     * file or a document that is not a Kubernetes object fails the class's start, naming the
     * file. Call it where the extension is made.
     *
     * @return this extension
     */
    public MooringExtension withManifests(java.nio.file.Path... files) {
        manifests.addAll(List.of(files));
        return this;
    }

    /**
     * Admission beans (instances of classes with {@code @Validate} or {@code @Mutate} methods) to
     * serve while the class's tests run: Mooring's admission dispatcher answers their reviews on
     * a free loopback port over HTTPS, with a certificate of a CA made for the test, and their
     * webhook configurations, as {@code mooring:manifests} generates them (failure policy,
     * timeouts, operations), are registered for the test's namespace pointing at it. After the
     * tests the configurations are removed. Cluster-scoped kinds' webhooks see every request of
     * the API server, as in a cluster. Beans that declare {@code @AdmissionCache} are refused
     * (test their cached reads with {@link TestAdmissionRequest#withCached}). Call it where the
     * extension is made.
     *
     * @return this extension
     * @throws IllegalArgumentException when an object declares no admission method
     */
    public MooringExtension withAdmission(Object... beans) {
        for (Object bean : beans) {
            if (!dev.mooring.engine.admission.AdmissionRoutes.declares(bean.getClass())) {
                throw new IllegalArgumentException(bean.getClass().getName() + " declares no @Validate or @Mutate method");
            }
        }
        admissionBeans.addAll(List.of(beans));
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        LocalApiServer server = LocalApiServer.shared(context);
        api = Config.fromConfig(server.kubeconfig().toString());
        KubeHttp http = new KubeHttp(api);
        namespace = "test-" + UUID.randomUUID().toString().substring(0, 8);
        Engine.Builder engine = Engine.builder(http,
                new KubeHttp(Config.fromConfig(server.kubeconfig().toString()).setReadTimeout(120_000)))
                .retry(new OperatorRuntime.Retry(Duration.ofMillis(100), Duration.ofSeconds(5))).operatorNamespace(namespace)
                .clock(clock);
        Set<Class<?>> customResources = new LinkedHashSet<>();
        for (Object controller : controllers) {
            ControllerDefinition definition = ControllerOptions.offline(controller.getClass(), namespace).orElseThrow();
            for (Class<?> kind : kinds(definition)) {
                if (kind.isAnnotationPresent(CustomResource.class)) {
                    customResources.add(kind);
                }
            }
            engine.controller(definition, controller,
                    controller instanceof Staged<?> ? StagePlan.of(controller.getClass(), definition.kind()) : null,
                    dev.mooring.engine.model.BeanMethods.of(controller.getClass()));
        }
        List<JsonObject> objects = new ArrayList<>();
        for (jakarta.json.JsonObject crd : Crds.of(new ArrayList<>(customResources))) {
            objects.add(JsonParser.parseString(crd.toString()).getAsJsonObject());
        }
        for (java.nio.file.Path file : manifests) {
            objects.addAll(dev.mooring.manifests.ManifestFolder.readFile(file));
        }
        new Installer(http, new Installer.Options(Duration.ofMinutes(1), true, true), line -> { }).installInto(namespace, objects);
        cluster = new MooringCluster(http);
        client = cluster.client(namespace);
        if (!admissionBeans.isEmpty()) {
            admission = AdmissionServer.start(http, namespace, cluster::client, admissionBeans);
        }
        executor = Executors.newCachedThreadPool();
        scheduler = Executors.newScheduledThreadPool(2);
        runtime = engine.threads(executor, scheduler).build();
        runtime.start();
        MooringCluster.await("the controllers ready (failures: " + runtime.failures() + ")", Duration.ofSeconds(60),
                () -> runtime.ready() || !runtime.healthy());
        if (!runtime.ready()) {
            throw new IllegalStateException("the controllers failed to start: " + runtime.failures());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (admission != null) {
            admission.close();
        }
        if (runtime != null) {
            runtime.stop();
        }
        if (executor != null) {
            executor.shutdownNow();
            scheduler.shutdownNow();
        }
    }

    /** The namespace of this test class: the controllers watch it, and {@link #client()} defaults to it. */
    public String namespace() {
        return namespace;
    }

    /** A live client, as the controllers' own, with the API server's administrator identity. */
    public ResourceClient client() {
        return client;
    }

    /** True while no controller failed fatally; see {@link #failures()}. */
    public boolean healthy() {
        return runtime.healthy();
    }

    /** The fatal failures of the controllers so far. */
    public List<String> failures() {
        return runtime.failures();
    }

    /** The cluster, for reads in other namespaces and waiting. */
    public MooringCluster cluster() {
        return cluster;
    }

    /**
     * Waits until the object {@code name} of {@code kind} in {@link #namespace()} exists and
     * satisfies {@code condition}; see {@link MooringCluster#awaitObject}.
     */
    public <T extends KubernetesObject> T awaitObject(Class<T> kind, String name, Predicate<T> condition, Duration timeout) {
        return cluster.awaitObject(kind, namespace, name, condition, timeout);
    }

    /**
     * Waits until the object {@code name} of {@code kind} in {@link #namespace()} is gone (a
     * finalizer removed, the garbage collector done).
     *
     * @throws AssertionError naming the object when the timeout passes first
     */
    public <T extends KubernetesObject> void awaitGone(Class<T> kind, String name, Duration timeout) {
        Eventually.await(kind.getSimpleName() + " " + namespace + "/" + name + " gone", timeout,
                () -> client.get(kind, namespace, name).isEmpty());
    }

    /** Every object of {@code kind} in {@link #namespace()}, read live. */
    public <T extends KubernetesObject> List<T> list(Class<T> kind) {
        return client.list(kind, namespace).stream().toList();
    }

    /**
     * Asks controller {@code controllerName} to reconcile {@code name} in {@link #namespace()},
     * as {@code Controllers.enqueue} does in Liberty.
     *
     * @throws IllegalArgumentException if no controller has that name
     */
    public void enqueue(String controllerName, String name) {
        runtime.enqueue(controllerName, new dev.mooring.api.ObjectKey(namespace, name));
    }

    /**
     * Runs {@code write} again while it loses a race, at most {@code attempts} times, as client-go's
     * {@code RetryOnConflict}: every failure {@link dev.mooring.api.client.KubernetesException#isConflict()}
     * reports, that is a 409 (a stale resourceVersion, a precondition that no longer holds) and the
     * 422 of a guarded write whose {@code test} operation failed ({@link ResourceClient#mutate},
     * {@code ensureFinalizer}, a patch built with {@code Patches.diff}). {@code write} should read
     * the object fresh each time (as {@code mutate} does). Any other failure is thrown at once.
     *
     * @return what the successful attempt returned
     * @throws dev.mooring.api.client.KubernetesException the last conflict when every attempt conflicted
     */
    public static <T> T retryOnConflict(int attempts, java.util.function.Supplier<T> write) {
        if (attempts < 1) {
            throw new IllegalArgumentException("At least one attempt, not " + attempts);
        }
        for (int attempt = 1;; attempt++) {
            try {
                return write.get();
            } catch (dev.mooring.api.client.KubernetesException e) {
                if (!e.isConflict() || attempt >= attempts) {
                    throw e;
                }
            }
        }
    }

    private static List<Class<?>> kinds(ControllerDefinition definition) {
        List<Class<?>> kinds = new ArrayList<>();
        kinds.add(definition.kind());
        kinds.addAll(definition.owns());
        return kinds;
    }

}
