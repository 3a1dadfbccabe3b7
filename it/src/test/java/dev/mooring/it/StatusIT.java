package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.api.Context;
import dev.mooring.api.EventType;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.examples.snippets.Widget;
import dev.mooring.it.widget.WidgetCrd;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Status and conditions written once per pass through the status subresource, also on failure; Events after them. */
class StatusIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    static final class Widgets implements Reconciler<Widget> {
        @Override
        public Result reconcile(Widget widget, Context<Widget> context) {
            String message = widget.getSpec().message;
            context.updateStatus(w -> {
                if (w.getStatus() == null) {
                    w.setStatus(new Widget.Status());
                }
                w.getStatus().observedMessage = message;
            });
            if ("fail".equals(message)) {
                context.condition("ConfigReady", "False", "BadMessage", "the message is 'fail'");
                throw new IllegalStateException("cannot configure " + message);
            }
            context.condition("ConfigReady", "True", "Configured", "configured with " + message);
            context.event(EventType.NORMAL, "Configured", "configured with " + message);
            return Result.done();
        }
    }

    @Test
    void statusConditionsAndEvents() throws Exception {
        WidgetCrd.install(Testbed.client());
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "status");
        KubeHttp raw = new KubeHttp(Testbed.client());
        String path = "/apis/example.com/v1/namespaces/" + namespace + "/widgets";
        WriteCounter counter = new WriteCounter();
        try (Engine engine = new Engine(counter.client(), Testbed.client(), List.of(new OperatorRuntime.Entry(
                Engine.definition("widgets", Widget.class, namespace, null, 1, List.of(), List.of()), new Widgets())))) {
            engine.awaitReady();
            raw.send("POST", path, Map.of(), "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\","
                    + "\"metadata\":{\"name\":\"w\"},\"spec\":{\"message\":\"hello\"}}", "application/json");

            JsonObject ready = Eventually.await("status written", TIMEOUT, () -> raw.get(path + "/w", Map.of()),
                    w -> w.has("status") && "hello".equals(w.getAsJsonObject("status").get("observedMessage").getAsString()));
            JsonObject condition = condition(ready, "ConfigReady");
            assertEquals("True", condition.get("status").getAsString());
            assertEquals("Configured", condition.get("reason").getAsString());
            assertEquals(1, condition.get("observedGeneration").getAsLong());
            String firstTransition = condition.get("lastTransitionTime").getAsString();
            assertTrue(counter.writes.contains("PATCH " + path + "/w/status"), "status not written through the subresource: "
                    + counter.writes);

            JsonObject event = Eventually.await("the Event", TIMEOUT, () -> events(raw, namespace), list -> list.size() > 0)
                    .get(0).getAsJsonObject();
            assertEquals("Configured", event.get("reason").getAsString());
            assertEquals("mooring/widgets", event.get("reportingController").getAsString());
            assertEquals(ready.getAsJsonObject("metadata").get("uid").getAsString(),
                    event.getAsJsonObject("regarding").get("uid").getAsString());

            // A converged pass: status unchanged, the repeated Event suppressed: no write at all.
            int writes = counter.count();
            long passes = engine.runtime.statuses().get(0).successes();
            engine.runtime.enqueue("widgets", new ObjectKey(namespace, "w"));
            Eventually.await("one more pass", TIMEOUT, () -> engine.runtime.statuses().get(0).successes() > passes);
            assertEquals(writes, counter.count(), "a converged pass wrote: " + counter.writes.subList(writes, counter.count()));

            // A failing pass still persists the status it staged.
            raw.send("PATCH", path + "/w", Map.of(), "{\"spec\":{\"message\":\"fail\"}}", "application/merge-patch+json");
            JsonObject failed = Eventually.await("the failure in the status", TIMEOUT, () -> raw.get(path + "/w", Map.of()),
                    w -> "False".equals(condition(w, "ConfigReady").get("status").getAsString()));
            assertEquals("fail", failed.getAsJsonObject("status").get("observedMessage").getAsString());
            assertEquals(2, condition(failed, "ConfigReady").get("observedGeneration").getAsLong());
            String failedTransition = condition(failed, "ConfigReady").get("lastTransitionTime").getAsString();
            assertTrue(!java.time.Instant.parse(failedTransition).isBefore(java.time.Instant.parse(firstTransition)),
                    failedTransition + " is before " + firstTransition);
            assertEquals("BadMessage", condition(failed, "ConfigReady").get("reason").getAsString());
            ControllerStatus status = engine.runtime.statuses().get(0);
            assertTrue(status.errors() >= 1, "the failing pass was not counted: " + status);
        }
    }

    private static JsonObject condition(JsonObject widget, String type) {
        if (!widget.has("status") || !widget.getAsJsonObject("status").has("conditions")) {
            return new JsonObject();
        }
        for (JsonElement element : widget.getAsJsonObject("status").getAsJsonArray("conditions")) {
            if (type.equals(element.getAsJsonObject().get("type").getAsString())) {
                return element.getAsJsonObject();
            }
        }
        return new JsonObject();
    }

    /** Events about a cluster-scoped object go to the operator's namespace, as the reference's recorder does. */
    @Test
    void eventsAboutClusterScopedObjectsGoToTheOperatorNamespace() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String operatorNamespace = Testbed.createNamespace(core, "operator");
        String label = "status-probe=" + operatorNamespace;
        Reconciler<io.kubernetes.client.openapi.models.V1Namespace> announcer = (ns, context) -> {
            context.event(EventType.NORMAL, "Seen", "seen " + ns.getMetadata().getName());
            return Result.done();
        };
        try (Engine engine = new Engine(Testbed.client(), Testbed.client(), List.of(new OperatorRuntime.Entry(Engine.definition(
                "namespaces", io.kubernetes.client.openapi.models.V1Namespace.class, null, label, 1, List.of(), List.of()), announcer)),
                operatorNamespace)) {
            engine.awaitReady();
            String seen = "seen-" + operatorNamespace;
            core.createNamespace(new io.kubernetes.client.openapi.models.V1Namespace().metadata(new V1ObjectMeta().name(seen)
                    .putLabelsItem("status-probe", operatorNamespace))).execute();
            KubeHttp raw = new KubeHttp(Testbed.client());
            JsonObject event = Eventually.await("the Event in the operator namespace", TIMEOUT, () -> events(raw, operatorNamespace),
                    list -> list.size() > 0).get(0).getAsJsonObject();
            assertEquals("Namespace", event.getAsJsonObject("regarding").get("kind").getAsString());
            assertEquals(seen, event.getAsJsonObject("regarding").get("name").getAsString());
            assertEquals("seen " + seen, event.get("note").getAsString());
        }
    }

    private static com.google.gson.JsonArray events(KubeHttp raw, String namespace) {
        return raw.get("/apis/events.k8s.io/v1/namespaces/" + namespace + "/events", Map.of()).getAsJsonArray("items");
    }
}
