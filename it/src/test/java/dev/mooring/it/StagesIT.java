package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.StagePlan;
import dev.mooring.examples.snippets.Widget;
import dev.mooring.examples.snippets.WidgetController;
import dev.mooring.it.widget.WidgetCrd;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1Service;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The user guide's WidgetController: a Widget driven through stages with three owned children; its conditions observed from outside. */
class StagesIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aWidgetGoesThroughItsStages() throws Exception {
        WidgetCrd.install(Testbed.client());
        CoreV1Api core = new CoreV1Api(Testbed.client());
        AppsV1Api apps = new AppsV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "stages");
        KubeHttp raw = new KubeHttp(Testbed.client());
        String path = "/apis/example.com/v1/namespaces/" + namespace + "/widgets/w";
        try (Engine engine = new Engine(Testbed.client(), Testbed.client(), List.of(new OperatorRuntime.Entry(
                Engine.definition("widgets", Widget.class, namespace, null, 1,
                        List.of(V1ConfigMap.class, V1Deployment.class, V1Service.class), List.of()), new WidgetController(),
                StagePlan.of(WidgetController.class, Widget.class))))) {
            engine.awaitReady();
            raw.send("POST", "/apis/example.com/v1/namespaces/" + namespace + "/widgets", Map.of(),
                    "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},"
                            + "\"spec\":{\"message\":\"hi\",\"replicas\":2,\"exposed\":true}}", "application/json");

            // The Deployment is not ready (nothing runs pods on the testbed): the pipeline waits at stage 2.
            JsonObject waiting = Eventually.await("DeploymentReady waiting", TIMEOUT, () -> raw.get(path, Map.of()),
                    w -> "DeploymentNotReady".equals(reason(w, "DeploymentReady")));
            assertEquals("True", status(waiting, "ConfigReady"));
            assertEquals("False", status(waiting, "DeploymentReady"));
            assertEquals("0 of 2 replicas ready", condition(waiting, "DeploymentReady").get("message").getAsString());
            assertEquals("Unknown", status(waiting, "ServiceReady"));
            assertEquals("DependencyNotReady", reason(waiting, "ServiceReady"));
            assertEquals("False", status(waiting, "Ready"));
            assertEquals("hi", core.readNamespacedConfigMap("w-config", namespace).execute().getData().get("message"));

            // The Deployment becomes ready: its status change reconciles the owning Widget.
            V1Deployment deployment = apps.readNamespacedDeployment("w", namespace).execute();
            assertEquals(2, deployment.getSpec().getReplicas());
            apps.replaceNamespacedDeploymentStatus("w", namespace,
                    deployment.status(new V1DeploymentStatus().replicas(2).readyReplicas(2))).execute();
            JsonObject ready = Eventually.await("Ready", TIMEOUT, () -> raw.get(path, Map.of()), w -> "True".equals(status(w, "Ready")));
            assertEquals("True", status(ready, "ServiceReady"));
            assertEquals("Reconciled", reason(ready, "Ready"));
            V1Service service = core.readNamespacedService("w", namespace).execute();
            assertEquals(ready.getAsJsonObject("metadata").get("uid").getAsString(),
                    service.getMetadata().getOwnerReferences().get(0).getUid());

            // A failing first stage: a ConfigMap of the child's name exists and nobody controls it.
            core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta()
                    .name("x-config")).data(Map.of("owner", "nobody"))).execute();
            String other = "/apis/example.com/v1/namespaces/" + namespace + "/widgets/x";
            raw.send("POST", "/apis/example.com/v1/namespaces/" + namespace + "/widgets", Map.of(),
                    "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"x\"},"
                            + "\"spec\":{\"message\":\"hi\",\"replicas\":1}}", "application/json");
            JsonObject failed = Eventually.await("ConfigReady failed", TIMEOUT, () -> raw.get(other, Map.of()),
                    w -> "TerminalError".equals(reason(w, "ConfigReady")));
            String message = condition(failed, "ConfigReady").get("message").getAsString();
            assertTrue(message.startsWith("ConfigReady failed: TerminalException: ") && message.contains("x-config")
                    && !message.contains("\n") && !message.contains("\tat "), message);
            assertEquals("DependencyNotReady", reason(failed, "DeploymentReady"));
            assertEquals("DependencyNotReady", reason(failed, "ServiceReady"));
            assertEquals("False", status(failed, "Ready"));
            assertEquals("TerminalError", reason(failed, "Ready"));
            assertEquals("nobody", core.readNamespacedConfigMap("x-config", namespace).execute().getData().get("owner"),
                    "a ConfigMap nobody controls was taken over");
            JsonObject warning = Eventually.await("the Warning Event", TIMEOUT,
                    () -> raw.get("/apis/events.k8s.io/v1/namespaces/" + namespace + "/events", Map.of()).getAsJsonArray("items"),
                    items -> items.toString().contains("\"TerminalError\"")).asList().stream()
                    .map(JsonElement::getAsJsonObject).filter(e -> "TerminalError".equals(e.get("reason").getAsString()))
                    .findFirst().orElseThrow();
            assertEquals("Warning", warning.get("type").getAsString());
            assertEquals("ConfigReady", warning.get("action").getAsString());
            assertTrue(engine.runtime.statuses().get(0).terminalErrors() >= 1);
        }
    }

    private static JsonObject condition(JsonObject widget, String type) {
        if (widget.has("status") && widget.getAsJsonObject("status").has("conditions")) {
            for (JsonElement element : widget.getAsJsonObject("status").getAsJsonArray("conditions")) {
                if (type.equals(element.getAsJsonObject().get("type").getAsString())) {
                    return element.getAsJsonObject();
                }
            }
        }
        return new JsonObject();
    }

    private static String status(JsonObject widget, String type) {
        JsonObject condition = condition(widget, type);
        return condition.has("status") ? condition.get("status").getAsString() : null;
    }

    private static String reason(JsonObject widget, String type) {
        JsonObject condition = condition(widget, type);
        return condition.has("reason") ? condition.get("reason").getAsString() : null;
    }
}
