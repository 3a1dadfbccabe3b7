package dev.mooring.engine.informer;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ObjectTransform;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The informer's list-and-watch protocol over an API client whose answers come from an
 * interceptor (scripted lists and watch streams): where it lists from, where each watch resumes,
 * bookmarks, and the relist after an expired history. What the API server decides about
 * versions is ElectionIT's and EngineRecoveryIT's, on the real one.
 */
class InformerTest {


    private final ScriptedApi api = new ScriptedApi();
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private Informer<V1ConfigMap> informer;
    private Thread loop;

    @AfterEach
    void stop() throws InterruptedException {
        if (informer != null) {
            informer.stop();
            loop.join(5000);
        }
    }

    private void start() throws InterruptedException {
        launch(null);
        assertTrue(informer.awaitSynced(Duration.ofSeconds(5)), "the initial list");
    }

    private void launch(ObjectTransform transform) {
        prepare(transform);
        loop.start();
    }

    /** The informer under test and its loop's thread, not started. */
    private void prepare(ObjectTransform transform) {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> api.answer(chain.request())).build());
        KubeHttp http = new KubeHttp(client);
        informer = new Informer<>(http, http, CONFIG_MAPS, "ops", null, null, Duration.ofSeconds(1), transform);
        informer.onRelist(() -> seen.add("relisted"));
        informer.addListener(new InformerListener<>() {
            @Override
            public void onAdd(V1ConfigMap object, boolean inInitialList) {
                seen.add((inInitialList ? "list " : "add ") + object.getMetadata().getName());
            }

            @Override
            public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
                seen.add("update " + newObject.getMetadata().getName());
            }

            @Override
            public void onDelete(V1ConfigMap object) {
                seen.add("delete " + object.getMetadata().getName());
            }
        });
        loop = new Thread(informer::run, "informer-under-test");
    }

    @Test
    void theFirstListComesFromTheWatchCacheAndEachWatchResumesWhereTheLastEventOrBookmarkLeft() throws Exception {
        api.lists.add(list("10", configMap("a", "5")));
        api.watches.add(List.of(event("ADDED", configMap("b", "11")), bookmark("20")));
        start();
        awaitQueries(3);
        assertEquals("GET /api/v1/namespaces/ops/configmaps limit=500 resourceVersion=0", api.queries.get(0),
                "the initial list, from the watch cache");
        assertTrue(api.queries.get(1).contains("resourceVersion=10") && api.queries.get(1).contains("watch=true"), api.queries.toString());
        assertTrue(api.queries.get(2).contains("resourceVersion=20"), "resumed from the bookmark: " + api.queries);
        assertEquals(List.of("list a", "add b"), seen, "the initial list's objects are told as such");
        assertTrue(informer.get(new ObjectKey("ops", "b")).isPresent());
        assertEquals(1, informer.listCount());
    }

    @Test
    void theVersionAppliedFollowsTheListEventsAndBookmarks() throws Exception {
        api.lists.add(list("10", configMap("a", "5")));
        api.watches.add(List.of(event("ADDED", configMap("b", "11"))));
        api.watches.add(List.of(bookmark("20")));
        prepare(null);
        assertEquals(-1, informer.seenVersion(), "nothing applied before the first list");
        loop.start();
        assertTrue(informer.awaitSynced(Duration.ofSeconds(5)));
        assertTrue(informer.awaitSeen(null, 20, System.nanoTime() + TimeUnit.SECONDS.toNanos(10)), "the bookmark applied");
        assertEquals(20, informer.seenVersion());
        assertTrue(informer.awaitSeen("ops", 11, System.nanoTime()), "an earlier version is reached at once");
        assertFalse(informer.awaitSeen("ops", 21, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50)), "a later one is not");
    }

    @Test
    void relistNowEndsAQuietWatchAndReturnsOnceAConsistentListIsInTheCache() throws Exception {
        api.lists.add(list("10", configMap("a", "5")));
        api.lists.add(list("30", configMap("a", "25"), configMap("c", "28")));
        api.blockingWatches = 1;
        start();
        awaitQueries(2); // the quiet watch is open

        assertTrue(informer.relistNow(System.nanoTime() + TimeUnit.SECONDS.toNanos(10)), "the list came in");
        assertEquals("GET /api/v1/namespaces/ops/configmaps limit=500", api.queries.get(2), "a consistent list: " + api.queries);
        assertEquals("25", informer.get(new ObjectKey("ops", "a")).orElseThrow().getMetadata().getResourceVersion());
        assertTrue(seen.containsAll(List.of("update a", "add c")), "the differences are told: " + seen);
        assertEquals(30, informer.seenVersion());
        assertEquals(2, informer.listCount());
        assertEquals(1, informer.listsAskedFor(), "asked for, not an expired history");
    }

    @Test
    void aRelistAskedBeforeTheFirstListMakesThatListConsistent() throws Exception {
        api.lists.add(list("10", configMap("a", "5")));
        prepare(null);
        assertFalse(informer.relistNow(System.nanoTime()), "asked, not waited for: the loop has not started");
        loop.start();
        assertTrue(informer.awaitSynced(Duration.ofSeconds(5)));
        assertEquals("GET /api/v1/namespaces/ops/configmaps limit=500", api.queries.get(0),
                "not from the watch cache, which may lag: " + api.queries);
        assertEquals(0, informer.listsAskedFor(), "the initial list, served consistently");
    }

    @Test
    void anInitialListThatFailsPartWayIsReadAgainWithoutTheObjectsOfTheFailedAttempt() throws Exception {
        api.lists.add("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\",\"metadata\":{\"resourceVersion\":\"10\","
                + "\"continue\":\"page-2\"},\"items\":[" + configMap("a", "5") + "," + configMap("b", "6") + "]}");
        api.lists.add(UNAVAILABLE);
        api.lists.add(list("12", configMap("a", "5"))); // b was deleted between the attempts
        start();
        assertEquals(List.of("list a"), seen, "b, read by the failed attempt only, is never told");
        assertFalse(informer.get(new ObjectKey("ops", "b")).isPresent(), "nor cached");
        assertEquals(1, informer.list().size());
    }

    @Test
    void anExpiredHistoryRelistsConsistentlyAndReportsWhatWentMeanwhile() throws Exception {
        api.lists.add(list("10", configMap("a", "5"), configMap("b", "6"), configMap("e", "7")));
        api.lists.add(list("30", configMap("a", "25"), configMap("c", "28"), configMap("e", "7")));
        api.watches.add(List.of("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"code\":410,"
                + "\"reason\":\"Expired\",\"message\":\"too old resource version\"}}"));
        start();
        awaitQueries(4);
        assertEquals("GET /api/v1/namespaces/ops/configmaps limit=500", api.queries.get(2), "the relist reads consistently, in pages");
        assertTrue(api.queries.get(3).contains("resourceVersion=30"), api.queries.toString());
        // within one list the order of the objects is not defined: the first list's adds, then the relist's changes
        assertEquals(8, seen.size(), seen.toString());
        assertEquals(java.util.Set.of("list a", "list b", "list e"), java.util.Set.copyOf(seen.subList(0, 3)));
        // a vanished object is a delete, a new one an add, one in both lists an update, changed (a) or not (e)
        assertEquals(java.util.Set.of("update a", "delete b", "add c", "update e"), java.util.Set.copyOf(seen.subList(3, 7)));
        assertEquals("relisted", seen.get(7), "told after the relist's changes, once");
        assertFalse(informer.get(new ObjectKey("ops", "b")).isPresent());
        assertEquals(2, informer.listCount());
    }

    /**
     * A watch that stays silent until its read times out, while the API server answers a
     * one-object list: a quiet kind. The watch is resumed from the same resourceVersion, with no
     * relist and no event.
     */
    @Test
    void aSilentWatchOfAQuietKindIsResumedWhereItWasWithoutARelist() throws Exception {
        api.lists.add(list("10", configMap("a", "5")));
        api.silentWatches = 1;
        start();
        awaitQueries(4);
        assertTrue(api.queries.get(1).contains("watch=true") && api.queries.get(1).contains("resourceVersion=10"), api.queries.toString());
        assertEquals("GET /api/v1/namespaces/ops/configmaps limit=1", api.queries.get(2), "the check that the server answers");
        assertTrue(api.queries.get(3).contains("watch=true") && api.queries.get(3).contains("resourceVersion=10"),
                "resumed from where it was: " + api.queries);
        assertEquals(1, informer.listCount(), "no relist");
        assertEquals(1, informer.quietWatches());
        assertEquals(List.of("list a"), seen);
    }

    /**
     * A silent watch while the API server does not answer either is a broken one, not a quiet
     * kind: counted as a failure (the reconnect waits its backoff) and resumed from where it was.
     */
    @Test
    void aSilentWatchWhileTheServerDoesNotAnswerIsAFailureNotAQuietKind() throws Exception {
        api.lists.add(list("10", configMap("a", "5")));
        api.lists.add("503");
        api.silentWatches = 1;
        start();
        awaitQueries(4);
        assertEquals("GET /api/v1/namespaces/ops/configmaps limit=1", api.queries.get(2), "the check that the server answers");
        assertTrue(api.queries.get(3).contains("watch=true") && api.queries.get(3).contains("resourceVersion=10"),
                "resumed from where it was: " + api.queries);
        assertEquals(0, informer.quietWatches());
        assertTrue(informer.lastProblem() != null && informer.lastProblem().contains("broke: java.net.SocketTimeoutException"),
                informer.lastProblem());
        assertEquals(1, informer.listCount(), "no relist");
    }

    /**
     * A metadata-only informer asks for PartialObjectMetadata (list and watch) and caches the
     * metadata under the kind watched, whatever kind the server's answer names.
     */
    @Test
    void aMetadataOnlyInformerAsksForPartialObjectMetadataAndCachesItUnderTheKindWatched() throws Exception {
        String partial = "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadata\",\"metadata\":{\"name\":\"a\","
                + "\"namespace\":\"ops\",\"resourceVersion\":\"5\",\"uid\":\"uid-a\",\"labels\":{\"app\":\"x\"}}}";
        api.lists.add("{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadataList\",\"metadata\":"
                + "{\"resourceVersion\":\"10\"},\"items\":[" + partial + "]}");
        api.watches.add(List.of(event("ADDED", partial.replace("\"a\"", "\"b\"").replace("uid-a", "uid-b"))));
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> api.answer(chain.request())).build());
        KubeHttp http = new KubeHttp(client);
        Informer<dev.mooring.api.PartialObjectMetadata> metadata = new Informer<>(http, http, CONFIG_MAPS.metadataOnly(), "ops", null,
                null, Duration.ofSeconds(1), null);
        Thread running = new Thread(metadata::run, "metadata-informer-under-test");
        running.start();
        try {
            assertTrue(metadata.awaitSynced(Duration.ofSeconds(5)), "the initial list");
            awaitQueries(2);
            assertEquals("list application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1", api.accepts.get(0));
            assertEquals("watch application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", api.accepts.get(1));
            dev.mooring.api.PartialObjectMetadata a = metadata.get(new ObjectKey("ops", "a")).orElseThrow();
            assertEquals("ConfigMap", a.getKind(), "the kind watched, not PartialObjectMetadata");
            assertEquals("v1", a.getApiVersion());
            assertEquals(java.util.Map.of("app", "x"), a.getMetadata().getLabels());
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (metadata.get(new ObjectKey("ops", "b")).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals("ConfigMap", metadata.get(new ObjectKey("ops", "b")).orElseThrow().getKind(), "a watched one too");
            assertTrue(metadata.describe().endsWith("(metadata only)"), metadata.describe());
        } finally {
            metadata.stop();
            running.join(5000);
        }
    }

    @Test
    void aTransformShapesWhatIsCachedListedOrWatched() throws Exception {
        api.lists.add(list("10", withData(configMap("a", "5"))));
        api.watches.add(List.of(event("ADDED", withData(configMap("b", "11")))));
        launch(new ObjectTransform(V1ConfigMap.class, "Trim.data", object -> {
            ((V1ConfigMap) object).setData(null);
            return object;
        }));
        assertTrue(informer.awaitSynced(Duration.ofSeconds(5)));
        awaitQueries(3); // the list, the watch with b, the next watch
        assertNull(informer.get(new ObjectKey("ops", "a")).orElseThrow().getData(), "listed, shaped");
        assertNull(informer.get(new ObjectKey("ops", "b")).orElseThrow().getData(), "watched, shaped");
        assertEquals("5", informer.get(new ObjectKey("ops", "a")).orElseThrow().getMetadata().getResourceVersion());
        assertTrue(informer.describe().endsWith("shaped by Trim.data"), informer.describe());
    }

    @Test
    void aTransformThatChangesAnIdentityFieldFailsTheInformerNamingItselfAndTheObject() throws Exception {
        api.lists.add(list("10", configMap("a", "5")));
        launch(new ObjectTransform(V1ConfigMap.class, "Rename.it", object -> {
            object.getMetadata().setName("b");
            return object;
        }));
        assertFalse(informer.awaitSynced(Duration.ofSeconds(5)));
        String message = informer.failure().orElseThrow().getMessage();
        assertTrue(message.contains("Rename.it") && message.contains("ops/a (uid uid-a, resourceVersion 5)")
                && message.contains("must keep them"), message);
        assertEquals(List.of(), seen, "no listener heard of it");
    }

    @Test
    void aDeletedEventUncachesTheObjectAndAWatchErrorOtherThanExpiredIsRetriedWithoutARelist() throws Exception {
        api.lists.add(list("10", configMap("a", "5")));
        api.watches.add(List.of(event("ADDED", configMap("b", "11")), event("DELETED", configMap("a", "12"))));
        api.watches.add(List.of("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"code\":500,"
                + "\"reason\":\"InternalError\",\"message\":\"etcd timed out\"}}"));
        start();
        awaitQueries(4);
        assertEquals(List.of("list a", "add b", "delete a"), seen);
        assertFalse(informer.get(new ObjectKey("ops", "a")).isPresent(), "a deleted object leaves the cache");
        assertTrue(api.queries.get(2).contains("watch=true") && api.queries.get(2).contains("resourceVersion=12"), api.queries.toString());
        assertTrue(api.queries.get(3).contains("watch=true") && api.queries.get(3).contains("resourceVersion=12"),
                "after the error the watch resumes where it was, no relist: " + api.queries);
        assertEquals(1, informer.listCount());
        assertTrue(informer.failure().isEmpty());
    }

    @Test
    void aWatchAnsweredWithExpiredRelistsAtOnce() throws Exception {
        api.lists.add(list("10", configMap("a", "5")));
        api.lists.add(list("30", configMap("a", "5")));
        api.watches.add(List.of("HTTP 410"));
        start();
        awaitQueries(4);
        assertEquals("GET /api/v1/namespaces/ops/configmaps limit=500", api.queries.get(2), "the relist: " + api.queries);
        assertTrue(api.queries.get(3).contains("resourceVersion=30"), api.queries.toString());
        assertEquals(2, informer.listCount());
    }

    @Test
    void aForbiddenWatchFailsTheInformerAndTellsItsListenersOnce() throws Exception {
        api.lists.add(list("10", configMap("a", "5")));
        api.watches.add(List.of("HTTP 403"));
        List<String> failures = new CopyOnWriteArrayList<>();
        prepare(null);
        informer.onFailure(cause -> failures.add(cause.getMessage()));
        loop.start();
        loop.join(30_000);
        assertFalse(loop.isAlive(), "the informer's loop ends");
        assertEquals(1, failures.size(), failures.toString());
        assertTrue(failures.get(0).contains("403"), failures.get(0));
        assertEquals(failures.get(0), informer.failure().orElseThrow().getMessage());
        assertFalse(informer.connected(), "a failed informer is not connected");
    }

    @Test
    void aRefusedInitialListReleasesThoseWaitingForTheSyncAtOnce() throws Exception {
        api.lists.add("403");
        launch(null);
        assertFalse(informer.awaitSynced(Duration.ofMinutes(10)), "released by the failure, not by the timeout");
        assertTrue(informer.failure().isPresent());
        assertFalse(informer.hasSynced());
    }

    @Test
    void theWatchAsksForBookmarksAndEndsOnTheServerWithinFiveToTenMinutes() throws Exception {
        api.lists.add(list("10"));
        start();
        awaitQueries(2);
        String watch = api.queries.get(1);
        assertTrue(watch.contains("allowWatchBookmarks=true"), watch);
        long seconds = Long.parseLong(watch.replaceAll(".*timeoutSeconds=(\\d+).*", "$1"));
        assertTrue(seconds >= 300 && seconds < 600, "a jittered timeout of 5 to 10 minutes: " + seconds);
    }

    @Test
    void theAnswerToTheListIsContactAndTheStopClosesAnOpenWatchSoTheLoopEndsAtOnce() throws Exception {
        api.lists.add(list("10", configMap("a", "5")));
        api.blockingWatches = 1;
        launch(null);
        assertTrue(informer.awaitSynced(Duration.ofSeconds(30)));
        awaitQueries(2);
        assertTrue(informer.connected(), "the list was answered");
        assertTrue(informer.lastContactMillis() > 0);
        informer.stop();
        loop.join(30_000);
        assertFalse(loop.isAlive(), "the stop closed the open watch");
        assertEquals(2, api.queries.size(), "nothing after the stop: " + api.queries);
    }

    private static String withData(String configMap) {
        return configMap.substring(0, configMap.length() - 1) + ",\"data\":{\"k\":\"v\"}}";
    }

    private void awaitQueries(int count) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (api.queries.size() < count && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        assertTrue(api.queries.size() >= count, "requests: " + api.queries);
    }

    /** A list answer that is a 503 instead. */
    private static final String UNAVAILABLE = "503";

    private static String configMap(String name, String version) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ops\","
                + "\"resourceVersion\":\"" + version + "\",\"uid\":\"uid-" + name + "\"}}";
    }

    private static String list(String version, String... items) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\",\"metadata\":{\"resourceVersion\":\"" + version + "\"},\"items\":["
                + String.join(",", items) + "]}";
    }

    private static String event(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    }

    private static String bookmark(String version) {
        return event("BOOKMARK", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"resourceVersion\":\"" + version + "\"}}");
    }

    /** Lists and watch streams in the order given; once they are used up, every watch is a quiet one that ends. */
    private static final class ScriptedApi {
        final Deque<String> lists = new ArrayDeque<>();
        final Deque<List<String>> watches = new ArrayDeque<>();
        final List<String> queries = new CopyOnWriteArrayList<>();
        final List<String> accepts = new CopyOnWriteArrayList<>();
        /** How many watches answer with a stream whose read times out (a silent connection). */
        int silentWatches;
        /** How many watches answer with a stream that sends nothing until it is closed. */
        int blockingWatches;

        synchronized Response answer(Request request) throws java.io.IOException {
            boolean watch = "true".equals(request.url().queryParameter("watch"));
            StringBuilder query = new StringBuilder(request.method() + " " + request.url().encodedPath());
            request.url().queryParameterNames().stream().sorted()
                    .filter(name -> watch || !name.equals("timeoutSeconds"))
                    .forEach(name -> query.append(' ').append(name).append('=').append(request.url().queryParameter(name)));
            queries.add(query.toString());
            accepts.add((watch ? "watch " : "list ") + request.header("Accept"));
            if (!watch) {
                String body = lists.isEmpty() ? list("99") : lists.poll();
                if (body.matches("\\d{3}")) {
                    return status(request, Integer.parseInt(body));
                }
                return respond(request, body);
            }
            if (silentWatches > 0) {
                silentWatches--;
                return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(200).message("scripted")
                        .body(ResponseBody.create(okio.Okio.buffer(new okio.Source() {
                            @Override
                            public long read(okio.Buffer sink, long byteCount) throws java.io.IOException {
                                throw new java.net.SocketTimeoutException("timeout");
                            }

                            @Override
                            public okio.Timeout timeout() {
                                return okio.Timeout.NONE;
                            }

                            @Override
                            public void close() {
                            }
                        }), MediaType.get("application/json"), -1)).build();
            }
            if (blockingWatches > 0) {
                blockingWatches--;
                java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
                return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(200).message("scripted")
                        .body(ResponseBody.create(okio.Okio.buffer(new okio.Source() {
                            @Override
                            public long read(okio.Buffer sink, long byteCount) throws java.io.IOException {
                                try {
                                    closed.await(); // an open watch on which nothing happens, until it is closed
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                                throw new java.io.IOException("closed");
                            }

                            @Override
                            public okio.Timeout timeout() {
                                return okio.Timeout.NONE;
                            }

                            @Override
                            public void close() {
                                closed.countDown();
                            }
                        }), MediaType.get("application/json"), -1)).build();
            }
            List<String> events = watches.poll();
            if (events != null && events.size() == 1 && events.get(0).matches("HTTP \\d{3}")) {
                return status(request, Integer.parseInt(events.get(0).substring(5)));
            }
            if (events == null) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return respond(request, "");
            }
            return respond(request, String.join("\n", events) + "\n");
        }

        private static Response status(Request request, int code) {
            return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(code).message("scripted")
                    .body(ResponseBody.create("{\"kind\":\"Status\",\"code\":" + code + ",\"message\":\"scripted " + code + "\"}",
                            MediaType.get("application/json"))).build();
        }

        private static Response respond(Request request, String body) {
            return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(200).message("scripted")
                    .body(ResponseBody.create(body, MediaType.get("application/json"))).build();
        }
    }
}
