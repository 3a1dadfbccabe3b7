package dev.mooring.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.EventType;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EventRecorderTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
    private final EventRecorder recorder = new EventRecorder(null, "mooring/test", "default", Duration.ofSeconds(60), 3,
            now::get, Instant::now);

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    private boolean admit(String uid, String reason) {
        return recorder.admit("ns", uid, EventType.NORMAL, reason, reason);
    }

    @Test
    void aRepeatedReasonIsSuppressedForTheIntervalWhateverTheMessage() {
        assertTrue(admit("u1", "Created"));
        assertFalse(admit("u1", "Created"));
        assertTrue(admit("u1", "Updated"), "another reason is another key");
        assertTrue(admit("u2", "Created"), "another object is another key");
        advance(Duration.ofSeconds(59));
        assertFalse(admit("u1", "Created"));
        advance(Duration.ofSeconds(1));
        assertTrue(admit("u1", "Created"));
        assertTrue(recorder.admit("ns", "u1", EventType.WARNING, "Created", "Created"), "another type is another key");
    }

    @Test
    void rememberedKeysAreBoundedLeastRecentlyUsedFirst() {
        for (String uid : new String[] {"a", "b", "c", "d"}) {
            assertTrue(admit(uid, "R"));
        }
        assertEquals(3, recorder.rememberedKeys());
        assertTrue(admit("a", "R"), "the oldest key was forgotten");
        assertFalse(admit("d", "R"));
    }

    @Test
    void aBurstOfTwentyThenFivePerSecond() {
        EventRecorder unbounded = new EventRecorder(null, "mooring/test", "default", Duration.ofSeconds(60), 100_000,
                now::get, Instant::now);
        int admitted = 0;
        for (int i = 0; i < 50; i++) {
            if (unbounded.admit("ns", "u" + i, EventType.NORMAL, "R", "R")) {
                admitted++;
            }
        }
        assertEquals(EventRecorder.BURST, admitted);
        advance(Duration.ofSeconds(1));
        admitted = 0;
        for (int i = 100; i < 150; i++) {
            if (unbounded.admit("ns", "u" + i, EventType.NORMAL, "R", "R")) {
                admitted++;
            }
        }
        assertEquals(5, admitted);
    }

    @Test
    void invalidReasonsAndActionsAreProgrammerErrors() {
        assertThrows(IllegalArgumentException.class, () -> EventRecorder.validate(EventType.NORMAL, "not valid", "a"));
        assertThrows(IllegalArgumentException.class, () -> EventRecorder.validate(EventType.NORMAL, "Valid", ""));
        EventRecorder.validate(EventType.WARNING, "Valid_Reason2", "Reconcile");
    }

    @Test
    void aNoteIsCutTo1024Characters() {
        io.kubernetes.client.openapi.models.V1ConfigMap regarding = new io.kubernetes.client.openapi.models.V1ConfigMap()
                .apiVersion("v1").kind("ConfigMap").metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta()
                        .namespace("ns").name("a").uid("u"));
        com.google.gson.JsonObject event = com.google.gson.JsonParser.parseString(recorder.body(regarding, "ns", EventType.NORMAL,
                "Created", "Reconcile", "x".repeat(1500))).getAsJsonObject();
        assertEquals("x".repeat(1024), event.get("note").getAsString());
        com.google.gson.JsonObject short_ = com.google.gson.JsonParser.parseString(recorder.body(regarding, "ns", EventType.WARNING,
                "Created", "Reconcile", null)).getAsJsonObject();
        assertEquals("", short_.get("note").getAsString());
        assertEquals("Warning", short_.get("type").getAsString());
    }

    /** A recorder whose API server answers every request with {@code code}, each request noted in {@code posts}. */
    private EventRecorder answering(int code, java.util.List<String> posts) {
        io.kubernetes.client.openapi.ApiClient client = new io.kubernetes.client.openapi.ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new okhttp3.OkHttpClient.Builder().addInterceptor(chain -> {
            posts.add(chain.request().method() + " " + chain.request().url().encodedPath());
            String body = code < 300 ? "{\"kind\":\"Event\"}" : "{\"kind\":\"Status\",\"code\":" + code + ",\"reason\":\"Forbidden\"}";
            return new okhttp3.Response.Builder().request(chain.request()).protocol(okhttp3.Protocol.HTTP_1_1).code(code)
                    .message("answer").body(okhttp3.ResponseBody.create(body, okhttp3.MediaType.get("application/json"))).build();
        }).build());
        return new EventRecorder(new dev.mooring.engine.kube.KubeHttp(client), "mooring/test", "default",
                Duration.ofSeconds(60), 3, now::get, Instant::now);
    }

    private static io.kubernetes.client.openapi.models.V1ConfigMap configMap(String uid) {
        return new io.kubernetes.client.openapi.models.V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().namespace("ns").name("a").uid(uid));
    }

    @Test
    void anObjectWithoutAUidGetsNoEventAndNoRequest() {
        java.util.List<String> posts = new java.util.concurrent.CopyOnWriteArrayList<>();
        EventRecorder accepting = answering(201, posts);
        assertFalse(accepting.emit(configMap(null), EventType.NORMAL, "Created", "Created", "note", Duration.ofSeconds(1)));
        assertEquals(java.util.List.of(), posts, "an Event needs the UID of what it regards: nothing is sent without one");
        assertTrue(accepting.emit(configMap("u1"), EventType.NORMAL, "Created", "Created", "note", Duration.ofSeconds(1)));
        assertEquals(java.util.List.of("POST /apis/events.k8s.io/v1/namespaces/ns/events"), posts, "with a UID it is sent");
    }

    @Test
    void anEventTheServerRefusesIsFalseNotAnExceptionAndItsKeyStaysReserved() {
        java.util.List<String> posts = new java.util.concurrent.CopyOnWriteArrayList<>();
        EventRecorder refused = answering(403, posts);
        io.kubernetes.client.openapi.models.V1ConfigMap map = configMap("u1");

        assertFalse(refused.emit(map, EventType.NORMAL, "Created", "Created", "note", Duration.ofSeconds(1)));
        assertEquals(java.util.List.of("POST /apis/events.k8s.io/v1/namespaces/ns/events"), posts);
        assertFalse(refused.emit(map, EventType.NORMAL, "Created", "Created", "note", Duration.ofSeconds(1)));
        assertEquals(1, posts.size(), "a refused key is not sent again within the interval");
    }
}
