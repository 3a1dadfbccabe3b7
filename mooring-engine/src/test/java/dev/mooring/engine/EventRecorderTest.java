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

    @Test
    void anObjectWithoutAUidGetsNoEventAndNoRequest() {
        // no HTTP client at all: a request would fail the test
        io.kubernetes.client.openapi.models.V1ConfigMap unsaved = new io.kubernetes.client.openapi.models.V1ConfigMap()
                .metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().namespace("ns").name("draft"));
        assertFalse(recorder.emit(unsaved, EventType.NORMAL, "Created", "Created", "note", Duration.ofSeconds(1)));
    }

    @Test
    void anEventTheServerRefusesIsFalseNotAnExceptionAndItsKeyStaysReserved() {
        java.util.List<String> posts = new java.util.concurrent.CopyOnWriteArrayList<>();
        io.kubernetes.client.openapi.ApiClient client = new io.kubernetes.client.openapi.ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new okhttp3.OkHttpClient.Builder().addInterceptor(chain -> {
            posts.add(chain.request().method() + " " + chain.request().url().encodedPath());
            return new okhttp3.Response.Builder().request(chain.request()).protocol(okhttp3.Protocol.HTTP_1_1).code(403)
                    .message("Forbidden").body(okhttp3.ResponseBody.create("{\"kind\":\"Status\",\"code\":403,\"reason\":\"Forbidden\"}",
                            okhttp3.MediaType.get("application/json"))).build();
        }).build());
        EventRecorder refused = new EventRecorder(new dev.mooring.engine.kube.KubeHttp(client), "mooring/test", "default",
                Duration.ofSeconds(60), 3, now::get, Instant::now);
        io.kubernetes.client.openapi.models.V1ConfigMap map = new io.kubernetes.client.openapi.models.V1ConfigMap().apiVersion("v1")
                .kind("ConfigMap").metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().namespace("ns").name("a").uid("u1"));

        assertFalse(refused.emit(map, EventType.NORMAL, "Created", "Created", "note", Duration.ofSeconds(1)));
        assertEquals(java.util.List.of("POST /apis/events.k8s.io/v1/namespaces/ns/events"), posts);
        assertFalse(refused.emit(map, EventType.NORMAL, "Created", "Created", "note", Duration.ofSeconds(1)));
        assertEquals(1, posts.size(), "a refused key is not sent again within the interval");
    }
}
