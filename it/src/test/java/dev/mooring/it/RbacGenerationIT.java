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
 * The generated RBAC is enough: on a testbed that enforces RBAC, the README's WidgetController
 * (a staged controller that ensures, applies and prunes children, writes status and Events)
 * runs with the token of a ServiceAccount that has nothing but the generated Role, and brings a
 * Widget to Ready.
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
        ApiClient admin = Config.fromConfig(runDir.resolve("admin.kubeconfig").toString());
        KubeHttp http = new KubeHttp(admin);
        WidgetCrd.install(admin);
        String namespace = "operators-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        http.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + namespace + "\"}}", "application/json");
        List<JsonObject> manifests = Rbac.of(List.of(WidgetController.class), new Rbac.Settings("widgets", namespace, null));
        for (JsonObject manifest : manifests) {
            apply(http, manifest);
        }
        String token = Testbed.token(runDir, namespace, "widgets");
        ApiClient operator = Config.fromToken(rbac.getProperty("TESTBED_SERVER"), token, false);
        ApiClient watches = Config.fromToken(rbac.getProperty("TESTBED_SERVER"), token, false).setReadTimeout(5_000);
        StagePipeline<Widget> pipeline = new StagePipeline<>(StagePlan.of(WidgetController.class, Widget.class), new WidgetController());
        try (Engine engine = new Engine(operator, watches, List.of(new OperatorRuntime.Entry(Engine.definition("widgets",
                Widget.class, namespace, null, 1, List.of(V1ConfigMap.class, V1Deployment.class, V1Service.class), List.of()),
                pipeline)), namespace)) {
            engine.awaitReady();
            String widgets = "/apis/example.com/v1/namespaces/" + namespace + "/widgets";
            http.send("POST", widgets, Map.of(), "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},"
                    + "\"spec\":{\"message\":\"hi\",\"replicas\":2,\"exposed\":true}}", "application/json");
            Eventually.await("the Deployment stage waiting", TIMEOUT, () -> http.get(widgets + "/w", Map.of()),
                    w -> "DeploymentNotReady".equals(reason(w, "DeploymentReady")));
            // nothing runs pods on the testbed: mark the Deployment available, then the Service stage runs
            String deployment = "/apis/apps/v1/namespaces/" + namespace + "/deployments/w";
            http.send("PATCH", deployment + "/status", Map.of(), "{\"status\":{\"replicas\":2,\"readyReplicas\":2}}",
                    "application/merge-patch+json");
            com.google.gson.JsonObject ready = Eventually.await("Ready", TIMEOUT, () -> http.get(widgets + "/w", Map.of()),
                    w -> "True".equals(status(w, "Ready")));
            assertEquals("True", status(ready, "ServiceReady"));
            assertTrue(engine.runtime.healthy(), String.valueOf(engine.runtime.failures()));
            assertEquals(0, engine.runtime.statuses().get(0).terminalErrors());
        }
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
