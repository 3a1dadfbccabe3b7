package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.util.Config;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Engine behaviours against the real API server: dead connections, resync, timeouts, filters, enqueue, stop. */
class EngineBehaviourIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final CoreV1Api core = new CoreV1Api(Testbed.client());
    private String namespace;

    @BeforeEach
    void isolated() throws ApiException {
        namespace = Testbed.createNamespace(core, "behaviour");
    }

    private ControllerDefinition definition(Class<? extends io.kubernetes.client.common.KubernetesObject> kind,
            Duration resync, Duration reconcileTimeout, boolean statusEvents) {
        return ControllerDefinition.builder("behaviour", kind).namespace(namespace).workers(1).resync(resync)
                .syncTimeout(Duration.ofSeconds(30)).shutdownTimeout(Duration.ofSeconds(2)).reconcileTimeout(reconcileTimeout)
                .statusEvents(statusEvents).build();
    }

    /** A watch whose connection goes silent (no close, no data) is detected and re-established. */
    @Test
    void aSilentlyDeadWatchConnectionIsReplaced() throws Exception {
        try (FreezingProxy proxy = new FreezingProxy(Integer.parseInt(Testbed.env().getProperty("TESTBED_PORT")))) {
            ApiClient throughProxy = Config.fromConfig(Testbed.runDir().resolve("admin.kubeconfig").toString())
                    .setBasePath("https://127.0.0.1:" + proxy.port()).setReadTimeout(3_000);
            Recorder recorder = new Recorder();
            try (Engine engine = new Engine(Testbed.client(), throughProxy,
                    List.of(new OperatorRuntime.Entry(definition(V1ConfigMap.class, Duration.ofMinutes(5), null, false), recorder)))) {
                engine.awaitReady();
                // An event through the watch proves that its connection (through the proxy) is open.
                create("before-freeze");
                Eventually.await("an event through the watch", TIMEOUT,
                        () -> recorder.passCount(new ObjectKey(namespace, "before-freeze")) >= 1);
                proxy.freezeOpenConnections();
                create("after-freeze");
                Eventually.await("a change after the connection froze reconciled", TIMEOUT,
                        () -> recorder.passCount(new ObjectKey(namespace, "after-freeze")) >= 1);
            }
        }
    }

    /**
     * A watch of a kind nobody changes stays silent (the API server sends no bookmark before its
     * watch cache has seen a change): past the idle timeout it is resumed, not reported as a lost
     * connection, while the server answers.
     */
    @Test
    void aQuietWatchIsResumedNotReportedAsLost() throws Exception {
        ApiClient watches = Config.fromConfig(Testbed.runDir().resolve("admin.kubeconfig").toString()).setReadTimeout(1_000);
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(dev.mooring.engine.informer.Informer.class.getName());
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    warnings.add(String.valueOf(record.getMessage()));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(handler);
        Recorder recorder = new Recorder();
        try (Engine engine = new Engine(Testbed.client(), watches,
                List.of(new OperatorRuntime.Entry(definition(V1ConfigMap.class, Duration.ofMinutes(5), null, false), recorder)))) {
            engine.awaitReady();
            dev.mooring.engine.informer.Informer<?> informer = engine.runtime.informers().get(0);
            Eventually.await("three silent periods found quiet", TIMEOUT, informer::quietWatches, quiet -> quiet >= 3);
            assertTrue(informer.connected(), "the informer reports a lost connection");
            create("after-quiet");
            Eventually.await("a change after the quiet periods reconciled", TIMEOUT,
                    () -> recorder.passCount(new ObjectKey(namespace, "after-quiet")) >= 1);
            assertEquals(0, engine.runtime.relists(), "a quiet watch was relisted");
        } finally {
            log.removeHandler(handler);
        }
        assertEquals(List.of(), warnings, "a quiet watch was logged as a failure");
    }

    @Test
    void theResyncPeriodRedeliversUnchangedObjects() throws Exception {
        Recorder recorder = new Recorder();
        try (Engine engine = Engine.of(definition(V1ConfigMap.class, Duration.ofSeconds(1), null, false), recorder)) {
            engine.awaitReady();
            create("steady");
            ObjectKey key = new ObjectKey(namespace, "steady");
            Eventually.await("three passes of an unchanged object", TIMEOUT, () -> recorder.passCount(key) >= 3);
        }
    }

    @Test
    void aPassOverItsTimeoutIsCancelledAndRetried() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean interrupted = new AtomicBoolean();
        Reconciler<V1ConfigMap> slowOnce = (resource, context) -> {
            if (calls.incrementAndGet() == 1) {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    throw e;
                }
            }
            return Result.done();
        };
        try (Engine engine = Engine.of(definition(V1ConfigMap.class, Duration.ofMinutes(5), Duration.ofSeconds(1), false),
                slowOnce)) {
            engine.awaitReady();
            create("slow");
            Eventually.await("a cancelled pass, then a successful one", TIMEOUT, () -> engine.runtime.statuses().get(0),
                    status -> status.cancellations() == 1 && status.successes() >= 1);
            assertTrue(interrupted.get(), "the timed-out pass was not interrupted");
            assertEquals(0, engine.runtime.statuses().get(0).errors());
        }
    }

    @Test
    void statusOnlyUpdatesDoNotReconcileUnlessAskedFor() throws Exception {
        AppsV1Api apps = new AppsV1Api(Testbed.client());
        for (boolean statusEvents : new boolean[] {false, true}) {
            Map<String, AtomicInteger> passes = new ConcurrentHashMap<>();
            Reconciler<V1Deployment> counter = (resource, context) -> {
                passes.computeIfAbsent(resource.getMetadata().getName(), k -> new AtomicInteger()).incrementAndGet();
                return Result.done();
            };
            String name = "web-" + statusEvents;
            try (Engine engine = Engine.of(definition(V1Deployment.class, Duration.ofMinutes(5), null, statusEvents), counter)) {
                engine.awaitReady();
                apps.createNamespacedDeployment(namespace, deployment(name)).execute();
                Eventually.await("the first pass", TIMEOUT, () -> passes.containsKey(name));
                int before = passes.get(name).get();

                V1Deployment current = apps.readNamespacedDeployment(name, namespace).execute();
                apps.replaceNamespacedDeploymentStatus(name, namespace,
                        current.status(new V1DeploymentStatus().replicas(1).observedGeneration(1L))).execute();
                String marker = "marker-" + statusEvents;
                apps.createNamespacedDeployment(namespace, deployment(marker)).execute();
                Eventually.await("the marker's pass", TIMEOUT, () -> passes.containsKey(marker));
                if (statusEvents) {
                    Eventually.await("a pass for the status change", TIMEOUT, () -> passes.get(name).get() > before);
                } else {
                    assertEquals(before, passes.get(name).get(), "a status-only update triggered a reconcile");
                }
            }
        }
    }

    @Test
    void enqueueFromOutsideReconcilesAndIsANoOpAfterStop() throws Exception {
        Recorder recorder = new Recorder();
        ObjectKey key = new ObjectKey(namespace, "external");
        Engine engine = Engine.of(definition(V1ConfigMap.class, Duration.ofMinutes(5), null, false), recorder);
        try (engine) {
            engine.awaitReady();
            create("external");
            Eventually.await("the first pass", TIMEOUT, () -> recorder.passCount(key) == 1);
            engine.runtime.enqueue("behaviour", key);
            Eventually.await("a pass for the explicit request", TIMEOUT, () -> recorder.passCount(key) == 2);
        }
        engine.runtime.enqueue("behaviour", key);
        Thread.sleep(300);
        assertEquals(2, recorder.passCount(key), "a key enqueued after stop was reconciled");
    }

    @Test
    void stopInterruptsAPassThatOutlivesTheShutdownTimeout() throws Exception {
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicBoolean started = new AtomicBoolean();
        Reconciler<V1ConfigMap> stuck = (resource, context) -> {
            started.set(true);
            try {
                Thread.sleep(120_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return Result.done();
        };
        Engine engine = Engine.of(definition(V1ConfigMap.class, Duration.ofMinutes(5), null, false), stuck);
        engine.awaitReady();
        create("stuck");
        Eventually.await("the pass started", TIMEOUT, started::get);
        engine.close();
        Eventually.await("the running pass interrupted by stop", Duration.ofSeconds(10), interrupted::get);
        ControllerStatus status = engine.runtime.statuses().get(0);
        assertEquals("STOPPED", status.state().name());
    }

    /**
     * A stop closes every controller's queue at once: while one controller drains a long pass, the
     * others take no new work (and each drains for its own timeout from the same moment).
     */
    @Test
    void onStopNoControllerTakesNewWorkWhileAnotherDrains() throws Exception {
        AtomicBoolean started = new AtomicBoolean();
        AtomicBoolean finished = new AtomicBoolean();
        Reconciler<V1ConfigMap> draining = (resource, context) -> {
            started.set(true);
            Thread.sleep(3_000);
            finished.set(true);
            return Result.done();
        };
        AtomicInteger idlePasses = new AtomicInteger();
        Reconciler<io.kubernetes.client.openapi.models.V1Secret> idle = (secret, context) -> {
            idlePasses.incrementAndGet();
            return Result.done();
        };
        Engine engine = new Engine(Testbed.client(), Testbed.client(), List.of(
                new OperatorRuntime.Entry(Engine.definition("draining", V1ConfigMap.class, namespace, null, 1, List.of(), List.of()),
                        draining),
                new OperatorRuntime.Entry(Engine.definition("idle", io.kubernetes.client.openapi.models.V1Secret.class, namespace,
                        null, 1, List.of(), List.of()), idle)));
        engine.awaitReady();
        create("long");
        Eventually.await("the long pass started", TIMEOUT, started::get);
        Thread stopper = new Thread(engine::close);
        stopper.start();
        Eventually.await("the draining controller stopping", TIMEOUT, () -> engine.runtime.statuses().stream()
                .anyMatch(status -> status.name().equals("draining") && status.state().name().equals("STOPPED")));
        core.createNamespacedSecret(namespace, new io.kubernetes.client.openapi.models.V1Secret()
                .metadata(new V1ObjectMeta().name("late"))).execute();
        stopper.join(30_000);
        assertTrue(finished.get(), "the long pass drained within its shutdownTimeout");
        assertEquals(0, idlePasses.get(), "a stopping controller took new work");
    }

    private void create(String name) throws ApiException {
        core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name(name))
                .data(Map.of("k", "v"))).execute();
    }

    private static V1Deployment deployment(String name) {
        return new V1Deployment().metadata(new V1ObjectMeta().name(name)).spec(new V1DeploymentSpec()
                .selector(new V1LabelSelector().matchLabels(Map.of("app", name)))
                .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", name)))
                        .spec(new V1PodSpec().containers(List.of(new V1Container().name("c").image("example/c:1"))))));
    }

}
