package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;


import dev.mooring.examples.snippets.Widget;
import dev.mooring.examples.snippets.WidgetController;
import dev.mooring.it.widget.WidgetCrd;
import dev.mooring.manifests.Rbac;
import dev.mooring.runtime.internal.KubeHttp;
import dev.mooring.runtime.internal.OperatorRuntime;
import dev.mooring.runtime.internal.StagePipeline;
import dev.mooring.runtime.internal.StagePlan;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.util.Config;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The generated RBAC is enough, and nothing in it is idle: on a testbed that enforces RBAC, the
 * README's WidgetController (a staged controller that ensures, applies and prunes children,
 * writes status and Events) runs with the token of a ServiceAccount that has nothing but the
 * generated Role and brings a Widget to Ready without one refused request; without any one rule,
 * some request of the same scenario is refused.
 */
class RbacGenerationIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static Path runDir;
    private static Properties rbac;

    @BeforeAll
    static void up() throws Exception {
        runDir = Testbed.runDir().resolveSibling("testbed-rbac-manifests");
        rbac = Testbed.up(runDir, "--authorization-mode=RBAC");
    }

    @AfterAll
    static void down() throws Exception {
        Testbed.down(runDir);
    }

    @Test
    void theWidgetControllerRunsWithTheGeneratedRbacOnly() throws Exception {
        List<String> refused = scenario(-1);
        assertEquals(List.of(), refused, "requests the API server refused");
    }

    /**
     * Each generated rule is needed: without it, some request of the same scenario is refused.
     * The exception is {@code widgets/finalizers}: Kubernetes requires it to set
     * {@code blockOwnerDeletion} on children only where the OwnerReferencesPermissionEnforcement
     * admission plugin runs, which the testbed (built from the API server libraries) does not have.
     */
    @Test
    void everyGeneratedRuleIsNeededBySomePath() throws Exception {
        List<String> rules = roleRules("probe");
        assertTrue(rules.size() >= 6, rules.toString());
        for (int i = 0; i < rules.size(); i++) {
            if (rules.get(i).equals("example.com/widgets/finalizers")) {
                continue;
            }
            List<String> refused = scenario(i);
            assertTrue(!refused.isEmpty(), "without " + rules.get(i) + " nothing was refused: the rule is not needed");
        }
    }

    /** The generated Role's rules as "group/resource", in order. */
    private static List<String> roleRules(String namespace) {
        return Rbac.of(List.of(WidgetController.class), new Rbac.Settings("widgets", namespace, null)).stream()
                .filter(manifest -> manifest.getString("kind").equals("Role")).findFirst().orElseThrow()
                .getJsonArray("rules").getValuesAs(JsonObject.class).stream()
                .map(rule -> rule.getJsonArray("apiGroups").getString(0) + "/" + rule.getJsonArray("resources").getString(0)).toList();
    }

    /**
     * Runs the Widget to Ready (or as far as the rights allow, for 20 s) with the generated RBAC,
     * without the Role's rule {@code drop} (none when negative), in a namespace of its own.
     *
     * @return the requests the API server refused (403), as "METHOD path"
     */
    private static List<String> scenario(int drop) throws Exception {
        ApiClient admin = Config.fromConfig(runDir.resolve("admin.kubeconfig").toString());
        KubeHttp http = new KubeHttp(admin);
        WidgetCrd.install(admin);
        String namespace = "operators-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        http.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + namespace + "\"}}", "application/json");
        for (JsonObject manifest : Rbac.of(List.of(WidgetController.class), new Rbac.Settings("widgets", namespace, null))) {
            if (drop >= 0 && manifest.getString("kind").equals("Role")) {
                var rules = Json.createArrayBuilder(manifest.getJsonArray("rules")).remove(drop).build();
                manifest = Json.createObjectBuilder(manifest).add("rules", rules).build();
            }
            apply(http, manifest);
        }
        String token = Testbed.token(runDir, namespace, "widgets");
        List<String> refused = new java.util.concurrent.CopyOnWriteArrayList<>();
        ApiClient operator = refusals(Config.fromToken(rbac.getProperty("TESTBED_SERVER"), token, false), refused);
        ApiClient watches = refusals(Config.fromToken(rbac.getProperty("TESTBED_SERVER"), token, false), refused)
                .setReadTimeout(5_000);
        StagePipeline<Widget> pipeline = new StagePipeline<>(StagePlan.of(WidgetController.class, Widget.class), new WidgetController());
        try (Engine engine = new Engine(operator, watches, List.of(new OperatorRuntime.Entry(Engine.definition("widgets",
                Widget.class, namespace, null, 1, List.of(V1ConfigMap.class, V1Deployment.class, V1Service.class), List.of()),
                pipeline)), namespace)) {
            Eventually.await("the engine started or refused", TIMEOUT, () -> engine.runtime.ready() || !refused.isEmpty()
                    || !engine.runtime.healthy());
            if (!refused.isEmpty()) {
                return refused;
            }
            String widgets = "/apis/example.com/v1/namespaces/" + namespace + "/widgets";
            http.send("POST", widgets, Map.of(), "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},"
                    + "\"spec\":{\"message\":\"hi\",\"replicas\":2,\"exposed\":true}}", "application/json");
            Duration bound = drop < 0 ? TIMEOUT : Duration.ofSeconds(20);
            boolean waiting = awaitOrRefused(bound, refused, () -> "DeploymentNotReady".equals(reason(http.get(widgets + "/w", Map.of()),
                    "DeploymentReady")));
            if (!waiting) {
                return refused;
            }
            // nothing runs pods on the testbed: mark the Deployment available, then the Service stage runs
            http.send("PATCH", "/apis/apps/v1/namespaces/" + namespace + "/deployments/w/status", Map.of(),
                    "{\"status\":{\"replicas\":2,\"readyReplicas\":2}}", "application/merge-patch+json");
            boolean ready = awaitOrRefused(bound, refused, () -> "True".equals(status(http.get(widgets + "/w", Map.of()), "Ready")));
            if (drop < 0) {
                assertTrue(ready, "the Widget did not become Ready; refused: " + refused);
                assertTrue(engine.runtime.healthy(), String.valueOf(engine.runtime.failures()));
                Thread.sleep(1000); // the Events of the last pass
            }
            return refused;
        }
    }

    /** Waits until {@code condition} or a refusal; true when the condition held. */
    private static boolean awaitOrRefused(Duration bound, List<String> refused, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        long end = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < end && refused.isEmpty()) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(200);
        }
        return false;
    }

    /** The client, recording every request the API server answers 403. */
    private static ApiClient refusals(ApiClient client, List<String> refused) {
        return client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
            okhttp3.Response response = chain.proceed(chain.request());
            if (response.code() == 403) {
                refused.add(chain.request().method() + " " + chain.request().url().encodedPath());
            }
            return response;
        }).build());
    }

    /** Creates a generated object with the admin identity (an existing one is left as it is). */
    private static void apply(KubeHttp http, JsonObject manifest) {
        String kind = manifest.getString("kind");
        String namespace = manifest.getJsonObject("metadata").getString("namespace", null);
        String collection = switch (kind) {
            case "ServiceAccount" -> "/api/v1/namespaces/" + namespace + "/serviceaccounts";
            case "Role", "RoleBinding" -> "/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/" + kind.toLowerCase() + "s";
            default -> "/apis/rbac.authorization.k8s.io/v1/" + kind.toLowerCase() + "s";
        };
        if (kind.equals("ServiceAccount") && http.getOptional("/api/v1", Map.of()).map(Object::toString)
                .filter(api -> api.contains("\"serviceaccounts\"")).isEmpty()) {
            return; // the testbed serves no ServiceAccount objects; its tokens need none
        }
        http.send("POST", collection, Map.of(), manifest.toString(), "application/json");
    }

    private static com.google.gson.JsonObject condition(com.google.gson.JsonObject widget, String type) {
        if (!widget.has("status") || !widget.getAsJsonObject("status").has("conditions")) {
            return null;
        }
        for (var item : widget.getAsJsonObject("status").getAsJsonArray("conditions")) {
            if (type.equals(item.getAsJsonObject().get("type").getAsString())) {
                return item.getAsJsonObject();
            }
        }
        return null;
    }

    private static String status(com.google.gson.JsonObject widget, String type) {
        com.google.gson.JsonObject condition = condition(widget, type);
        return condition == null ? null : condition.get("status").getAsString();
    }

    private static String reason(com.google.gson.JsonObject widget, String type) {
        com.google.gson.JsonObject condition = condition(widget, type);
        return condition == null ? null : condition.get("reason").getAsString();
    }
}
