package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.api.Reconciler;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.QueuePolicy;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A controller with a retry limit gives a failing object up when its retries ran out: a Warning
 * Event {@code ReconcileGaveUp} on the object says so, and it gets no further pass until it changes.
 */
class RetryLimitIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aFailingObjectIsGivenUpWithAnEventUntilItChanges() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "retry-limit");
        AtomicInteger passes = new AtomicInteger();
        Reconciler<V1ConfigMap> failing = (map, context) -> {
            passes.incrementAndGet();
            throw new IllegalStateException("the cloud API refuses " + map.getMetadata().getName());
        };
        ControllerDefinition definition = Engine.definition("failing", V1ConfigMap.class, namespace, null, 1, List.of(), List.of())
                .toBuilder().queuePolicy(new QueuePolicy(Duration.ofMillis(100), Duration.ofMillis(200), 2, 0, 0)).build();
        try (Engine engine = Engine.of(definition, failing)) {
            engine.awaitReady();
            core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("x")).data(Map.of("v", "1")))
                    .execute();
            JsonObject event = Eventually.await("the Event of the given-up object", TIMEOUT, () -> gaveUp(namespace), found -> found != null);
            assertEquals("Warning", event.get("type").getAsString());
            assertEquals("x", event.getAsJsonObject("regarding").get("name").getAsString());
            assertTrue(event.get("note").getAsString().startsWith("Gave up after 3 failed passes (retry-limit 2); the next change of the"
                    + " object is reconciled again: java.lang.IllegalStateException: the cloud API refuses x"), event.toString());
            assertEquals(3, passes.get(), "the first pass and its two retries");
            assertEquals(3, engine.runtime.statuses().get(0).errors());

            core.replaceNamespacedConfigMap("x", namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("x").namespace(namespace))
                    .data(Map.of("v", "2"))).execute();
            Eventually.await("a pass of the changed object", TIMEOUT, passes::get, count -> count > 3);
        }
    }

    private static JsonObject gaveUp(String namespace) {
        JsonArray events = new KubeHttp(Testbed.client()).get("/apis/events.k8s.io/v1/namespaces/" + namespace + "/events", Map.of())
                .getAsJsonArray("items");
        for (JsonElement event : events) {
            if ("ReconcileGaveUp".equals(event.getAsJsonObject().get("reason").getAsString())) {
                return event.getAsJsonObject();
            }
        }
        return null;
    }
}
