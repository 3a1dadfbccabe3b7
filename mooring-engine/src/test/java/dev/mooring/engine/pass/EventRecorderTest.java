package dev.mooring.engine.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.EventType;
import dev.mooring.engine.LogCapture;
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
        return new EventRecorder(answeringHttp(code, posts, () -> { }), "mooring/test", "default",
                Duration.ofSeconds(60), 3, now::get, Instant::now);
    }

    private static dev.mooring.engine.kube.KubeHttp sendingHttp(java.util.List<String> posts, Runnable latency) {
        return answeringHttp(201, posts, latency);
    }

    private static dev.mooring.engine.kube.KubeHttp answeringHttp(int code, java.util.List<String> posts, Runnable latency) {
        io.kubernetes.client.openapi.ApiClient client = new io.kubernetes.client.openapi.ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new okhttp3.OkHttpClient.Builder().addInterceptor(chain -> {
            latency.run();
            posts.add(chain.request().method() + " " + chain.request().url().encodedPath());
            String body = code < 300 ? "{\"kind\":\"Event\"}" : "{\"kind\":\"Status\",\"code\":" + code + ",\"reason\":\"Forbidden\"}";
            return new okhttp3.Response.Builder().request(chain.request()).protocol(okhttp3.Protocol.HTTP_1_1).code(code)
                    .message("answer").body(okhttp3.ResponseBody.create(body, okhttp3.MediaType.get("application/json"))).build();
        }).build());
        return new dev.mooring.engine.kube.KubeHttp(client);
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

    @Test
    void anEventCarriesWhatItRegardsWhoReportsItWhenAndWhy() {
        io.kubernetes.client.openapi.models.V1ConfigMap regarding = configMap("u-7");
        com.google.gson.JsonObject event = com.google.gson.JsonParser.parseString(new EventRecorder(null, "mooring/test", "default",
                Duration.ofSeconds(60), 3, now::get, () -> Instant.parse("2030-01-02T03:04:05.123456Z"))
                .body(regarding, "ns", EventType.WARNING, "Failed", "Reconcile", "x".repeat(1024))).getAsJsonObject();
        assertEquals("events.k8s.io/v1", event.get("apiVersion").getAsString());
        assertEquals("Event", event.get("kind").getAsString());
        assertTrue(event.getAsJsonObject("metadata").get("name").getAsString().matches("mooring-[0-9a-f]{32}"), event.toString());
        assertEquals("ns", event.getAsJsonObject("metadata").get("namespace").getAsString());
        assertEquals("2030-01-02T03:04:05.123456Z", event.get("eventTime").getAsString());
        assertEquals("mooring/test", event.get("reportingController").getAsString());
        assertTrue(event.get("reportingInstance").getAsString().matches("[0-9a-f-]{36}"), event.toString());
        assertEquals("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"a\",\"uid\":\"u-7\",\"namespace\":\"ns\"}",
                event.get("regarding").toString());
        assertEquals("Failed", event.get("reason").getAsString());
        assertEquals("Reconcile", event.get("action").getAsString());
        assertEquals(1024, event.get("note").getAsString().length(), "a note of 1024 characters is kept whole");
        assertEquals("Warning", event.get("type").getAsString());
        assertEquals("Normal", com.google.gson.JsonParser.parseString(recorder.body(regarding, "ns", EventType.NORMAL, "Done", "Reconcile",
                "n")).getAsJsonObject().get("type").getAsString());
        io.kubernetes.client.openapi.models.V1Namespace cluster = new io.kubernetes.client.openapi.models.V1Namespace().apiVersion("v1")
                .kind("Namespace").metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().name("team").uid("u-8"));
        assertEquals("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"name\":\"team\",\"uid\":\"u-8\"}",
                com.google.gson.JsonParser.parseString(recorder.body(cluster, "default", EventType.NORMAL, "Done", "Reconcile", "n"))
                        .getAsJsonObject().get("regarding").toString(), "a cluster-scoped object has no namespace in the reference");
    }

    @Test
    void emitChecksReasonAndActionAndWritesClusterScopedEventsToTheFallbackNamespace() {
        java.util.List<String> posts = new java.util.concurrent.CopyOnWriteArrayList<>();
        EventRecorder accepting = answering(201, posts);
        assertThrows(IllegalArgumentException.class, () -> accepting.emit(configMap("u1"), EventType.NORMAL, "not valid", "a", "n",
                Duration.ofSeconds(1)));
        assertEquals(java.util.List.of(), posts);
        io.kubernetes.client.openapi.models.V1Namespace cluster = new io.kubernetes.client.openapi.models.V1Namespace().apiVersion("v1")
                .kind("Namespace").metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().name("team").uid("u-8"));
        assertTrue(accepting.emit(cluster, EventType.NORMAL, "Done", "Reconcile", "n", Duration.ofSeconds(1)));
        assertEquals(java.util.List.of("POST /apis/events.k8s.io/v1/namespaces/default/events"), posts);
    }

    @Test
    void reasonsActionsAndReportersHaveTheirLengths() {
        EventRecorder.validate(EventType.NORMAL, "R".repeat(128), "a".repeat(128));
        assertThrows(IllegalArgumentException.class, () -> EventRecorder.validate(EventType.NORMAL, "R".repeat(129), "a"));
        assertThrows(IllegalArgumentException.class, () -> EventRecorder.validate(EventType.NORMAL, "R", "a".repeat(129)));
        assertThrows(IllegalArgumentException.class, () -> EventRecorder.validate(EventType.NORMAL, "R", null));
        assertThrows(NullPointerException.class, () -> EventRecorder.validate(null, "R", "a"));
        new EventRecorder(null, "c".repeat(128), "default");
        assertThrows(IllegalArgumentException.class, () -> new EventRecorder(null, "c".repeat(129), "default"));
        assertThrows(IllegalArgumentException.class, () -> new EventRecorder(null, "", "default"));
    }

    @Test
    void aFlushSendsWhatItsBudgetAllowsAndDropsTheRest() {
        java.util.List<String> posts = new java.util.concurrent.CopyOnWriteArrayList<>();
        EventRecorder sending = answering(201, posts);
        // every request takes 4 s of the recorder's clock
        EventRecorder slow = new EventRecorder(sendingHttp(posts, () -> advance(Duration.ofSeconds(4))), "mooring/test", "default",
                Duration.ofSeconds(60), 100, now::get, Instant::now);
        java.util.List<EventRecorder.Queued> queued = java.util.List.of(new EventRecorder.Queued(EventType.NORMAL, "One", "A", "n"),
                new EventRecorder.Queued(EventType.NORMAL, "Two", "A", "n"), new EventRecorder.Queued(EventType.NORMAL, "Three", "A", "n"));
        LogCapture log = new LogCapture(EventRecorder.class);
        log.start();
        try {
            slow.flush(configMap("u1"), queued, Duration.ofSeconds(8));
            assertEquals(2, posts.size(), "two requests fill the 8 s; the third is dropped");
            java.util.List<String> warnings = log.lines().stream().filter(line -> line.startsWith("WARNING Dropped")).toList();
            assertEquals(1, warnings.size(), log.lines().toString());
            assertTrue(warnings.get(0).startsWith("WARNING Dropped 1 Event(s) for ") && warnings.get(0)
                    .endsWith(": the flush timeout of 8000 ms was used up"), warnings.get(0));
            posts.clear();
            sending.flush(configMap("u2"), queued, Duration.ofMillis(1));
            assertEquals(3, posts.size(), "on a clock that stands still the budget is never used up");
            assertEquals(1, log.lines().stream().filter(line -> line.startsWith("WARNING Dropped")).count(), "nothing dropped: no warning");
        } finally {
            log.stop();
        }
    }
}
