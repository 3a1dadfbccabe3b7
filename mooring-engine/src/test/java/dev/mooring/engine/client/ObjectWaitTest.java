package dev.mooring.engine.client;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.WaitCondition;
import dev.mooring.api.client.WaitTimeoutException;
import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a wait refuses or ends before its watch: no HTTP client is given, so any request would fail the test. */
class ObjectWaitTest {

    private static final V1ConfigMap MAP = new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name("settings"));

    @Test
    void aWaitWithoutConditionsOrForAnUnnamedObjectIsRefused() {
        assertEquals("A wait needs at least one condition", assertThrows(IllegalArgumentException.class,
                () -> ObjectWait.await(null, CONFIG_MAPS, "ops", MAP, Map.of(), Duration.ofSeconds(5))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ObjectWait.await(null, CONFIG_MAPS, "ops",
                new V1ConfigMap().metadata(new V1ObjectMeta()), Map.of("gone", WaitCondition.deleted()), Duration.ofSeconds(5)));
    }

    @Test
    void aZeroTimeoutTimesOutAtOnceNamingWhatWasAwaited() {
        Map<String, WaitCondition<? super V1ConfigMap>> conditions = new LinkedHashMap<>();
        conditions.put("filled", WaitCondition.matches(map -> map.getData() != null));
        conditions.put("deleted", WaitCondition.deleted());
        WaitTimeoutException timeout = assertThrows(WaitTimeoutException.class,
                () -> ObjectWait.await(null, CONFIG_MAPS, "ops", MAP, conditions, Duration.ZERO));
        assertEquals("Timed out after 0 ms waiting for ConfigMap ops/settings to be filled or deleted", timeout.getMessage());
    }

    /** A watch that sends {@code events} once, recording each request's query. */
    private static KubeHttp watching(java.util.List<String> queries, String... events) {
        io.kubernetes.client.openapi.ApiClient client = new io.kubernetes.client.openapi.ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new okhttp3.OkHttpClient.Builder().addInterceptor(chain -> {
            queries.add(chain.request().url().encodedPath() + "?" + chain.request().url().query());
            String body = queries.size() == 1 ? String.join("\n", events) + "\n" : "";
            return new okhttp3.Response.Builder().request(chain.request()).protocol(okhttp3.Protocol.HTTP_1_1).code(200).message("OK")
                    .body(okhttp3.ResponseBody.create(body, okhttp3.MediaType.get("application/json"))).build();
        }).build());
        return new KubeHttp(client);
    }

    private static String event(String type, String data) {
        return "{\"type\":\"" + type + "\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
                + "\"settings\",\"namespace\":\"ops\",\"resourceVersion\":\"8\"}" + (data == null ? "" : ",\"data\":" + data) + "}}";
    }

    @Test
    void theFirstConditionAChangeMeetsIsTheAnswerBookmarksAside() {
        java.util.List<String> queries = new java.util.concurrent.CopyOnWriteArrayList<>();
        Map<String, WaitCondition<? super V1ConfigMap>> conditions = new LinkedHashMap<>();
        conditions.put("filled", WaitCondition.matches(map -> map.getData() != null && map.getData().containsKey("k")));
        conditions.put("deleted", WaitCondition.deleted());
        V1ConfigMap seen = new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name("settings").resourceVersion("7"));
        String answer = ObjectWait.await(watching(queries, "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"ConfigMap\",\"apiVersion\":"
                + "\"v1\",\"metadata\":{\"resourceVersion\":\"8\"}}}", event("MODIFIED", "{\"other\":\"x\"}"),
                event("MODIFIED", "{\"k\":\"v\"}")), CONFIG_MAPS, "ops", seen, conditions, Duration.ofSeconds(30));
        assertEquals("filled", answer);
        assertTrue(queries.get(0).contains("fieldSelector=metadata.name%3Dsettings") || queries.get(0).contains("fieldSelector=metadata.name=settings"),
                queries.get(0));
        assertTrue(queries.get(0).contains("resourceVersion=7"), "from the version the caller saw: " + queries.get(0));

        queries.clear();
        assertEquals("deleted", ObjectWait.await(watching(queries, event("DELETED", null)), CONFIG_MAPS, "ops", seen, conditions,
                Duration.ofSeconds(30)));
    }
}
