package dev.mooring.engine.client;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.WatchEvent;
import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

/**
 * The raw watch's handling of what a watch stream can carry: ERROR events (a 403 ends the watch
 * with that code, a 410 restarts from the current objects or ends it, as asked), bookmarks.
 * The answers are scripted below the HTTP client, since a real API server sends a 403 as an
 * ERROR event only in rare races (the request itself is refused with 403 otherwise).
 */
class LiveWatchTest {

    private static final String PATH = "/api/v1/namespaces/ops/configmaps";

    /** Answers each request with the next scripted watch body, and records the requests' URLs. */
    private static final class ScriptedWatches {
        final Deque<String> bodies = new ArrayDeque<>();
        final List<HttpUrl> requests = new ArrayList<>();

        ScriptedWatches then(String... events) {
            bodies.add(String.join("\n", events) + "\n");
            return this;
        }

        KubeHttp http() {
            OkHttpClient transport = new OkHttpClient.Builder().addInterceptor(chain -> {
                requests.add(chain.request().url());
                String body = bodies.isEmpty() ? "" : bodies.poll();
                return new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1).code(200).message("OK")
                        .body(ResponseBody.create(body, MediaType.get("application/json"))).build();
            }).build();
            return new KubeHttp(new ApiClient(transport).setBasePath("http://apiserver.invalid"));
        }
    }

    private static String added(String name, String resourceVersion) {
        return "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"namespace\":\"ops\","
                + "\"name\":\"" + name + "\",\"resourceVersion\":\"" + resourceVersion + "\"}}}";
    }

    private static String error(int code, String reason, String message) {
        return "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":" + code
                + ",\"reason\":\"" + reason + "\",\"message\":\"" + message + "\"}}";
    }

    /** A watch that ends by itself after 20 s, so that a broken rule fails the test rather than hanging it. */
    private static LiveWatch<V1ConfigMap> watch(KubeHttp http, String from, boolean failWhenExpired) {
        return new LiveWatch<>(http, CONFIG_MAPS, PATH, Map.of(), from, failWhenExpired, System.nanoTime() + 20_000_000_000L);
    }

    @Test
    void anErrorEventWith403EndsTheWatchWithThatCode() {
        ScriptedWatches server = new ScriptedWatches().then(added("a", "5"),
                error(403, "Forbidden", "configmaps is forbidden: User \\\"op\\\" cannot watch resource"));
        try (LiveWatch<V1ConfigMap> watch = watch(server.http(), "4", false)) {
            Iterator<WatchEvent<V1ConfigMap>> events = watch.iterator();
            assertEquals("a", events.next().object().getMetadata().getName());
            KubernetesException failure = assertThrows(KubernetesException.class, events::hasNext);
            assertEquals(403, failure.code());
            assertEquals("Forbidden", failure.reason());
            assertTrue(failure.getMessage().contains("The watch of ConfigMap at " + PATH) && failure.getMessage().contains("forbidden"),
                    failure.getMessage());
        }
        assertEquals(1, server.requests.size(), "a fatal error is not retried");
        assertEquals("true", server.requests.get(0).queryParameter("watch"));
        assertEquals("4", server.requests.get(0).queryParameter("resourceVersion"));
        assertEquals("true", server.requests.get(0).queryParameter("allowWatchBookmarks"));
    }

    @Test
    void anExpiredHistoryRestartsFromTheCurrentObjectsOrEndsTheWatchWhenAsked() {
        ScriptedWatches restarting = new ScriptedWatches().then(error(410, "Expired", "too old resource version: 4 (9)"))
                .then(added("b", "10"));
        try (LiveWatch<V1ConfigMap> watch = watch(restarting.http(), "4", false)) {
            WatchEvent<V1ConfigMap> event = watch.iterator().next();
            assertEquals("b", event.object().getMetadata().getName());
            assertEquals("10", event.resourceVersion());
        }
        assertEquals("4", restarting.requests.get(0).queryParameter("resourceVersion"));
        assertNull(restarting.requests.get(1).queryParameter("resourceVersion"), "again from the current objects");

        ScriptedWatches ending = new ScriptedWatches().then(error(410, "Expired", "too old resource version: 4 (9)"));
        try (LiveWatch<V1ConfigMap> watch = watch(ending.http(), "4", true)) {
            assertEquals(410, assertThrows(KubernetesException.class, watch.iterator()::hasNext).code());
        }
    }

    @Test
    void anExpiredOrGoneStatusWithoutACodeIs410AndOtherCodelessErrorsAreNot() {
        for (String reason : List.of("Expired", "Gone")) {
            ScriptedWatches server = new ScriptedWatches().then(error(0, reason, "too old resource version"));
            try (LiveWatch<V1ConfigMap> watch = watch(server.http(), "4", true)) {
                assertEquals(410, assertThrows(KubernetesException.class, watch.iterator()::hasNext).code(), reason);
            }
        }
        // another error without a code is transient: the watch resumes where it was, its history intact
        ScriptedWatches other = new ScriptedWatches().then(error(0, "InternalError", "etcd is down")).then(added("c", "11"));
        try (LiveWatch<V1ConfigMap> watch = watch(other.http(), "4", true)) {
            assertEquals("c", watch.iterator().next().object().getMetadata().getName());
        }
        assertEquals("4", other.requests.get(1).queryParameter("resourceVersion"));
        ScriptedWatches coded = new ScriptedWatches().then(error(403, "Expired", "a 403 that says Expired"));
        try (LiveWatch<V1ConfigMap> watch = watch(coded.http(), "4", true)) {
            assertEquals(403, assertThrows(KubernetesException.class, watch.iterator()::hasNext).code(), "a code is kept as it is");
        }
    }

    @Test
    void aBookmarkMovesTheResumePointAndAnEndedStreamResumesFromIt() {
        ScriptedWatches server = new ScriptedWatches()
                .then("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"12\"}}}")
                .then(added("c", "13"));
        try (LiveWatch<V1ConfigMap> watch = watch(server.http(), "4", false)) {
            Iterator<WatchEvent<V1ConfigMap>> events = watch.iterator();
            WatchEvent<V1ConfigMap> bookmark = events.next();
            assertEquals(WatchEvent.Type.BOOKMARK, bookmark.type());
            assertEquals("12", bookmark.resourceVersion());
            assertEquals("c", events.next().object().getMetadata().getName());
            watch.close();
            assertFalse(events.hasNext(), "nothing after close");
        }
        assertEquals("12", server.requests.get(1).queryParameter("resourceVersion"), "resumed from the bookmark");
    }
}
