package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.test.Eventually;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.util.PatchUtils;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The ConfigMap mirror example, deployed in the Mooring EAR to a real Liberty server, against
 * the real API server: black-box, through Kubernetes and the server's HTTP endpoints.
 */
@ExtendWith(ArquillianExtension.class)
class ConfigMapMirrorIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String LABEL = "example.com/mirror";

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return Ears.mooring();
    }

    private final CoreV1Api core = new CoreV1Api(Testbed.client());
    private String namespace;

    @BeforeEach
    void readyAndIsolated() throws Exception {
        Eventually.await("readiness UP", TIMEOUT, () -> Http.get("/health/ready"), answer -> answer.status() == 200);
        namespace = Testbed.createNamespace(core, "mirror");
    }

    @Test
    void mirrorCopiesTheSourceAndIsOwnedByIt() throws Exception {
        V1ConfigMap source = create("app", Map.of(LABEL, "true"), Map.of("a", "1", "b", "2"));

        V1ConfigMap mirror = awaitMirror("app", Map.of("a", "1", "b", "2"));
        V1OwnerReference owner = mirror.getMetadata().getOwnerReferences().get(0);
        assertEquals(1, mirror.getMetadata().getOwnerReferences().size());
        assertEquals("ConfigMap", owner.getKind());
        assertEquals("app", owner.getName());
        assertEquals(source.getMetadata().getUid(), owner.getUid());
        assertEquals(Boolean.TRUE, owner.getController());
    }

    @Test
    void mirrorFollowsChangedAndRemovedKeys() throws Exception {
        create("app", Map.of(LABEL, "true"), Map.of("a", "1", "b", "2"));
        awaitMirror("app", Map.of("a", "1", "b", "2"));

        jsonPatch("app", "[{\"op\":\"replace\",\"path\":\"/data/a\",\"value\":\"changed\"},"
                + "{\"op\":\"remove\",\"path\":\"/data/b\"},{\"op\":\"add\",\"path\":\"/data/c\",\"value\":\"3\"}]");
        awaitMirror("app", Map.of("a", "changed", "c", "3"));

        jsonPatch("app", "[{\"op\":\"remove\",\"path\":\"/data\"}]");
        awaitMirror("app", Map.of());
    }

    @Test
    void unlabelledConfigMapGetsNoMirror() throws Exception {
        create("plain", Map.of(), Map.of("a", "1"));
        create("other-label", Map.of(LABEL, "false"), Map.of("a", "1"));
        // Created after the two above: once its mirror exists, the controller has seen them all.
        create("labelled", Map.of(LABEL, "true"), Map.of("a", "1"));
        awaitMirror("labelled", Map.of("a", "1"));

        assertTrue(read("plain-mirror").isEmpty(), "an unlabelled ConfigMap was mirrored");
        assertTrue(read("other-label-mirror").isEmpty(), "a ConfigMap labelled false was mirrored");
    }

    /**
     * Sources deleted and created again under their names while their mirrors still exist (the
     * garbage collector has not removed them yet): each new source gets a mirror of its own, soon
     * after the old one is gone, not after the 300 s resync.
     */
    @Test
    void replacedSourcesGetNewMirrors() throws Exception {
        int sources = 20;
        Map<String, String> oldUids = new java.util.HashMap<>();
        for (int i = 0; i < sources; i++) {
            create("replaced-" + i, Map.of(LABEL, "true"), Map.of("generation", "1"));
        }
        for (int i = 0; i < sources; i++) {
            oldUids.put("replaced-" + i, awaitMirror("replaced-" + i, Map.of("generation", "1")).getMetadata().getUid());
        }
        Map<String, String> newUids = new java.util.HashMap<>();
        for (int i = 0; i < sources; i++) {
            core.deleteNamespacedConfigMap("replaced-" + i, namespace).execute();
            newUids.put("replaced-" + i, create("replaced-" + i, Map.of(LABEL, "true"), Map.of("generation", "2"))
                    .getMetadata().getUid());
        }
        for (int i = 0; i < sources; i++) {
            String name = "replaced-" + i;
            V1ConfigMap mirror = Eventually.await("a new mirror of " + name, Duration.ofSeconds(30), () -> read(name + "-mirror"),
                    found -> found.isPresent() && !found.get().getMetadata().getUid().equals(oldUids.get(name))).get();
            assertEquals(newUids.get(name), mirror.getMetadata().getOwnerReferences().get(0).getUid(), name);
            assertEquals(Map.of("generation", "2"), mirror.getData(), name);
        }
    }

    @Test
    void unchangedSourceCausesNoWrite() throws Exception {
        create("steady", Map.of(LABEL, "true"), Map.of("a", "1"));
        String version = awaitMirror("steady", Map.of("a", "1")).getMetadata().getResourceVersion();
        long passes = successfulPasses();

        // A metadata change of the source triggers a reconcile that has nothing to do.
        jsonPatch("steady", "[{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{\"touched\":\"1\"}}]");
        Eventually.await("a reconcile after the annotation", TIMEOUT, this::successfulPasses, count -> count > passes);

        assertEquals(version, read("steady-mirror").orElseThrow().getMetadata().getResourceVersion(),
                "a reconcile of an unchanged source wrote the mirror");
    }

    @Test
    void healthReportsTheSyncedController() throws Exception {
        Http.Answer ready = Http.get("/health/ready");
        assertEquals(200, ready.status());
        JsonObject check = ready.check("mooring-controllers");
        assertEquals("ready", check.getJsonObject("data").getString("configmap-mirror"));
        assertEquals(200, Http.get("/health/live").status());
        assertEquals(200, Http.get("/health/started").status());
        // what Liberty answers where the reference's own health server answered 405 and 404 (design decisions)
        Http.Answer posted = Http.post("/health/ready");
        assertEquals(200, posted.status(), "Liberty answers a POST to a health endpoint as a GET");
        assertEquals("UP", posted.json().asJsonObject().getString("status"), posted.body());
        assertEquals(404, Http.get("/health/nothing-here").status(), "an unknown health path");

        JsonObject runtime = (JsonObject) Http.get("/mooring/api/runtime").json();
        assertTrue(runtime.getBoolean("healthy") && runtime.getBoolean("ready"), runtime.toString());
        assertEquals(1, runtime.getInt("informers"), "one controller watching one kind: " + runtime);
        assertEquals(0, runtime.getJsonArray("failures").size());
    }

    /** A scrape parses as Prometheus text and carries the documented names with plausible values. */
    @Test
    void metricsAreScrapedInPrometheusText() throws Exception {
        Map<String, Double> before = Prometheus.parse(Http.get("/metrics").body());
        create("metered-one", Map.of(LABEL, "true"), Map.of("a", "1"));
        create("metered-two", Map.of(LABEL, "true"), Map.of("a", "2"));
        awaitMirror("metered-one", Map.of("a", "1"));
        awaitMirror("metered-two", Map.of("a", "2"));
        Http.Answer answer = Http.get("/metrics");
        assertEquals(200, answer.status(), "the scrape needs no authentication");
        // Liberty's endpoint leaves out the format version; Prometheus reads text/plain as the text format (MonitoringIT)
        String type = answer.contentType().replace(" ", "").toLowerCase(java.util.Locale.ROOT);
        assertTrue(type.startsWith("text/plain;") && type.contains("charset=utf-8"), "Prometheus text in UTF-8: " + type);
        Map<String, Double> after = Prometheus.parse(answer.body());

        String controller = "controller=\"configmap-mirror\"";
        String success = Prometheus.key("controller_runtime_reconcile_total", controller, "result=\"success\"");
        assertTrue(after.get(success) - before.getOrDefault(success, 0.0) >= 2, "successes: " + after.get(success));
        String count = Prometheus.key("controller_runtime_reconcile_time_seconds_count", controller);
        assertTrue(after.get(count) - before.getOrDefault(count, 0.0) >= 2);
        assertTrue(after.get(Prometheus.key("controller_runtime_reconcile_time_seconds_sum", controller)) > 0);
        assertEquals(after.get(count), after.get(Prometheus.key("controller_runtime_reconcile_time_seconds_bucket", controller,
                "le=\"+Inf\"")), "every pass falls in the +Inf bucket");
        assertEquals(0.0, after.get(Prometheus.key("controller_runtime_reconcile_total", controller, "result=\"error\"")));
        assertEquals(16.0, after.get(Prometheus.key("controller_runtime_max_concurrent_reconciles", controller)), "the default workers");
        assertEquals(1.0, after.get(Prometheus.key("mooring_manager_ready")));
        assertEquals(1.0, after.get(Prometheus.key("mooring_informers")));
        for (String name : java.util.List.of("controller_runtime_active_workers", "controller_runtime_reconcile_errors_total",
                "controller_runtime_terminal_reconcile_errors_total", "controller_runtime_reconcile_timeouts_total",
                "mooring_workqueue_delayed")) {
            assertTrue(after.containsKey(Prometheus.key(name, controller)), name + " missing");
        }
        assertTrue(after.containsKey(Prometheus.key("workqueue_depth", controller, "name=\"configmap-mirror\"")));
        String queue = "name=\"configmap-mirror\"";
        assertTrue(after.containsKey(Prometheus.key("workqueue_retries_total", controller, queue)));
        String adds = Prometheus.key("workqueue_adds_total", controller, queue);
        assertTrue(after.get(adds) - before.getOrDefault(adds, 0.0) >= 2, "adds: " + after.get(adds));
        for (String timer : java.util.List.of("workqueue_queue_duration_seconds", "workqueue_work_duration_seconds")) {
            String timed = Prometheus.key(timer + "_count", controller, queue);
            assertTrue(after.get(timed) - before.getOrDefault(timed, 0.0) >= 2, timer + ": " + after.get(timed));
            assertTrue(after.containsKey(Prometheus.key(timer + "_bucket", controller, queue, "le=\"+Inf\"")), timer + " has no buckets");
        }
        assertTrue(after.containsKey(Prometheus.key("workqueue_unfinished_work_seconds", controller, queue)));
        assertTrue(after.containsKey(Prometheus.key("workqueue_longest_running_processor_seconds", controller, queue)));
        // the API server's host and port, as client-go labels them
        String host = "host=\"" + java.net.URI.create(Testbed.env().getProperty("TESTBED_SERVER")).getAuthority() + "\"";
        String gets = Prometheus.key("rest_client_requests_total", "code=\"200\"", host, "method=\"GET\"");
        assertTrue(after.getOrDefault(gets, 0.0) >= 1, "no answered GET in " + after.keySet().stream()
                .filter(key -> key.startsWith("rest_client")).toList());
        assertTrue(after.get(Prometheus.key("rest_client_request_duration_seconds_count", host, "verb=\"GET\"")) >= 1);
        // buckets only: the shipped bootstrap.properties turns the timers' client-side percentiles off
        for (String timer : java.util.List.of("controller_runtime_reconcile_time_seconds", "workqueue_queue_duration_seconds",
                "workqueue_work_duration_seconds", "rest_client_request_duration_seconds")) {
            assertFalse(after.keySet().stream().anyMatch(key -> key.startsWith(timer + "{") && key.contains("quantile=")),
                    timer + " publishes percentiles");
        }
        Map<String, String> types = Prometheus.types(answer.body());
        for (String counter : java.util.List.of("controller_runtime_reconcile_total", "controller_runtime_reconcile_errors_total",
                "workqueue_adds_total", "workqueue_retries_total", "rest_client_requests_total")) {
            assertEquals("counter", Prometheus.type(types, counter), counter);
        }
        assertFalse(answer.body().contains("metered-one") || answer.body().contains(namespace),
                "object names or namespaces leaked into metric labels");
    }

    private long successfulPasses() throws Exception {
        JsonArray controllers = (JsonArray) Http.get("/mooring/api/controllers").json();
        return controllers.getJsonObject(0).getJsonNumber("successes").longValue();
    }

    private V1ConfigMap create(String name, Map<String, String> labels, Map<String, String> data) throws ApiException {
        return core.createNamespacedConfigMap(namespace, new V1ConfigMap()
                .metadata(new V1ObjectMeta().name(name).labels(labels)).data(data)).execute();
    }

    private void jsonPatch(String name, String patch) throws ApiException {
        PatchUtils.patch(V1ConfigMap.class, () -> core.patchNamespacedConfigMap(name, namespace, new V1Patch(patch))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_PATCH, core.getApiClient());
    }

    private Optional<V1ConfigMap> read(String name) throws ApiException {
        try {
            return Optional.of(core.readNamespacedConfigMap(name, namespace).execute());
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private V1ConfigMap awaitMirror(String source, Map<String, String> data) throws InterruptedException {
        return Eventually.await("mirror of " + source + " with data " + data, TIMEOUT,
                () -> read(source + "-mirror"),
                mirror -> mirror.isPresent() && data.equals(mirror.get().getData() == null ? Map.of() : mirror.get().getData()))
                .orElseThrow();
    }
}
