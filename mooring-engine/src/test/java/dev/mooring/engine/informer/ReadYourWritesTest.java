package dev.mooring.engine.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import dev.mooring.api.ObjectKey;
import dev.mooring.engine.FakeSource;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a read waits for: the source's delivery of the runtime's pending write of what it reads,
 * and nothing else. A wait that must end by delivery has a bound of a minute (never reached); a
 * wait that must end by its bound has one of 50 ms.
 */
class ReadYourWritesTest {

    private static final ResourceType<V1ConfigMap> CONFIG_MAPS = new ResourceType<>("", "v1", "ConfigMap", "configmaps", true,
            V1ConfigMap.class);

    private final WrittenVersions written = new WrittenVersions(List::of);
    private final FakeSource<V1ConfigMap> source = new FakeSource<>(CONFIG_MAPS);
    private final List<String> waits = new CopyOnWriteArrayList<>();

    private ReadYourWrites reads(Duration bound) {
        return new ReadYourWrites(written, new ReadYourWrites.Settings(true, bound),
                (controller, caughtUp) -> waits.add(controller + (caughtUp ? " caught up" : " timed out")));
    }

    private void wroteChild(String name, String version, String ownerUid) {
        written.record(WrittenVersions.kindKey("", "ConfigMap"), new WrittenVersions.Write(new ObjectKey("ops", name),
                Long.parseLong(version), null, ownerUid, System.nanoTime()));
    }

    private void wrote(String namespace, String name, String version, String labels) {
        // the record itself: a prune (every 64 writes) would drop it, as no informer of the kind is listed
        written.record(WrittenVersions.kindKey("", "ConfigMap"), new WrittenVersions.Write(new ObjectKey(namespace, name),
                Long.parseLong(version), labels == null ? null : Map.of("tier", labels), null, System.nanoTime()));
    }

    private static V1ConfigMap map(String namespace, String name, String version) {
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta().namespace(namespace).name(name)
                .resourceVersion(version));
    }

    private void awaitWaiting() throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (source.waiting() == 0 && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertEquals(1, source.waiting(), "the read waits");
    }

    @Test
    void aReadWithNoWritePendingOrOneDeliveredWaitsForNothing() {
        source.add(map("ops", "a", "5"));
        reads(Duration.ofMinutes(1)).awaitKey("c", source, new ObjectKey("ops", "a"));
        wrote("ops", "a", "5", null);
        reads(Duration.ofMinutes(1)).awaitKey("c", source, new ObjectKey("ops", "a"));
        reads(Duration.ofMinutes(1)).awaitList("c", source, "ops");
        assertEquals(List.of(), waits, "the cache holds the version written: no wait to count");
    }

    @Test
    void aReadOfAnObjectWaitsUntilTheCacheDeliversTheVersionWritten() throws Exception {
        source.add(map("ops", "a", "5"));
        wrote("ops", "a", "8", null);
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
            reads(Duration.ofMinutes(1)).awaitKey("c", source, new ObjectKey("ops", "a"));
            return source.cached(new ObjectKey("ops", "a")).orElseThrow().getMetadata().getResourceVersion();
        });
        awaitWaiting();
        source.update(map("ops", "a", "7")); // a write before this runtime's
        source.update(map("ops", "a", "8"));
        assertEquals("8", read.get(30, TimeUnit.SECONDS), "the read sees the version written, not an older one");
        assertEquals(List.of("c caught up"), waits);
    }

    @Test
    void aWaitEndsAtItsBoundAndIsCounted() {
        source.add(map("ops", "a", "5"));
        wrote("ops", "a", "8", null);
        reads(Duration.ofMillis(50)).awaitKey("c", source, new ObjectKey("ops", "a"));
        assertEquals(List.of("c timed out"), waits);
    }

    @Test
    void aCreatedObjectIsWaitedForUnlessTheSourceCouldNeverHoldIt() {
        source.selecting(labels -> labels != null && "front".equals(labels.get("tier")));
        wrote("ops", "back", "8", "back");
        reads(Duration.ofMillis(50)).awaitKey("c", source, new ObjectKey("ops", "back"));
        reads(Duration.ofMillis(50)).awaitList("c", source, "ops");
        assertEquals(List.of(), waits, "outside the source's selector and not cached: it never comes");

        wrote("ops", "front", "9", "front");
        reads(Duration.ofMillis(50)).awaitKey("c", source, new ObjectKey("ops", "front"));
        assertEquals(List.of("c timed out"), waits, "within the selector: waited for");
    }

    @Test
    void anObjectThatLeavesTheSelectorIsWaitedForUntilTheCacheDropsIt() throws Exception {
        source.selecting(labels -> labels != null && "front".equals(labels.get("tier")));
        source.add(map("ops", "a", "5"));
        wrote("ops", "a", "8", "back"); // relabelled: the watch tells it as a delete at version 8
        CompletableFuture<Boolean> read = CompletableFuture.supplyAsync(() -> {
            reads(Duration.ofMinutes(1)).awaitKey("c", source, new ObjectKey("ops", "a"));
            return source.cached(new ObjectKey("ops", "a")).isPresent();
        });
        awaitWaiting();
        source.delete(map("ops", "a", "8"));
        assertFalse(read.get(30, TimeUnit.SECONDS), "the read does not find the old version");
    }

    @Test
    void aListWaitsForTheHighestPendingWriteOfItsNamespaceOnly() throws Exception {
        source.add(map("ops", "a", "5"));
        wrote("ops", "a", "8", null);
        wrote("ops", "b", "9", null);
        wrote("dev", "c", "20", null);
        CompletableFuture<List<String>> list = CompletableFuture.supplyAsync(() -> {
            reads(Duration.ofMinutes(1)).awaitList("c", source, "ops");
            return source.list().stream().map(map -> map.getMetadata().getName() + "@" + map.getMetadata().getResourceVersion()).sorted()
                    .toList();
        });
        awaitWaiting();
        source.update(map("ops", "a", "8"));
        assertEquals(1, source.waiting(), "a at 8 is not enough: b's write is pending too");
        source.add(map("ops", "b", "9"));
        assertEquals(List.of("a@8", "b@9"), list.get(30, TimeUnit.SECONDS), "both writes of ops, not dev's at 20");
        assertEquals(List.of("c caught up"), waits, "one wait for the list");

        waits.clear();
        reads(Duration.ofMillis(50)).awaitList("c", source, null);
        assertEquals(List.of("c timed out"), waits, "a list of every namespace waits for dev's write too");
    }

    @Test
    void anOwnersChildrenWaitForTheWritesOfItsChildrenOnly() {
        V1ConfigMap released = map("ops", "released", "3");
        released.getMetadata().addOwnerReferencesItem(new io.kubernetes.client.openapi.models.V1OwnerReference().uid("u-web").controller(true));
        source.add(released);
        wroteChild("db-child", "9", "u-db");
        reads(Duration.ofMillis(50)).awaitIndexed("c", source, dev.mooring.api.Cache.CONTROLLER_INDEX, "u-web");
        assertEquals(List.of(), waits, "another owner's child is not waited for");

        wroteChild("web-child", "10", "u-web");
        reads(Duration.ofMillis(50)).awaitIndexed("c", source, dev.mooring.api.Cache.CONTROLLER_INDEX, "u-web");
        assertEquals(List.of("c timed out"), waits, "a child written for it is");

        waits.clear();
        source.add(map("ops", "web-child", "10"));
        wroteChild("released", "11", null); // its owner reference removed: the cache still has it under u-web
        reads(Duration.ofMillis(50)).awaitIndexed("c", source, dev.mooring.api.Cache.CONTROLLER_INDEX, "u-web");
        assertEquals(List.of("c timed out"), waits, "a child cached under it and written since is waited for");

        waits.clear();
        source.update(released.metadata(released.getMetadata().resourceVersion("11")));
        reads(Duration.ofMillis(50)).awaitIndexed("c", source, dev.mooring.api.Cache.CONTROLLER_INDEX, "u-web");
        assertEquals(List.of(), waits, "all delivered");
        reads(Duration.ofMillis(50)).awaitIndexed("c", source, "by-tier", "front");
        assertEquals(List.of("c caught up"), waits,
                "another index minds every write of the kind: db-child's at 9, not cached, is delivered with version 11");
    }

    @Test
    void aListOfAClusterScopedKindMindsItsWritesWhateverNamespaceItIsGiven() {
        ResourceType<io.kubernetes.client.openapi.models.V1Namespace> namespaces = new ResourceType<>("", "v1", "Namespace", "namespaces",
                false, io.kubernetes.client.openapi.models.V1Namespace.class);
        FakeSource<io.kubernetes.client.openapi.models.V1Namespace> clusterScoped = new FakeSource<>(namespaces);
        written.record(WrittenVersions.kindKey("", "Namespace"), new WrittenVersions.Write(new ObjectKey(null, "team-a"), 4, null, null,
                System.nanoTime()));
        reads(Duration.ofMillis(50)).awaitList("c", clusterScoped, "ignored");
        assertEquals(List.of("c timed out"), waits);
    }

    @Test
    void onlyAControllerReferenceToTheOwnerMakesACachedChildItsChild() {
        V1ConfigMap referring = map("ops", "referring", "3");
        referring.getMetadata().addOwnerReferencesItem(new io.kubernetes.client.openapi.models.V1OwnerReference().uid("u-web").controller(false));
        V1ConfigMap another = map("ops", "another", "3");
        another.getMetadata().addOwnerReferencesItem(new io.kubernetes.client.openapi.models.V1OwnerReference().uid("u-db").controller(true));
        source.add(referring);
        source.add(another);
        wroteChild("referring", "9", null);
        wroteChild("another", "9", null);
        reads(Duration.ofMillis(50)).awaitIndexed("c", source, dev.mooring.api.Cache.CONTROLLER_INDEX, "u-web");
        assertEquals(List.of(), waits, "neither is u-web's child");
    }

    @Test
    void offWaitsForNothingAndAnInterruptedReadGoesOnWithTheFlagSet() {
        source.add(map("ops", "a", "5"));
        wrote("ops", "a", "8", null);
        ReadYourWrites.OFF.awaitKey("c", source, new ObjectKey("ops", "a"));
        ReadYourWrites.OFF.awaitList("c", source, null);
        ReadYourWrites.OFF.awaitIndexed("c", source, "by-tier", "front");
        assertEquals(List.of(), waits);

        Thread.currentThread().interrupt();
        reads(Duration.ofMinutes(1)).awaitKey("c", source, new ObjectKey("ops", "a"));
        assertTrue(Thread.interrupted(), "the interrupt is kept for the pass to see");
        assertEquals(List.of(), waits, "an interrupted wait is not counted");
    }

    @Test
    void settingsRefuseANegativeBound() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new ReadYourWrites.Settings(true, Duration.ofSeconds(-1)));
        assertEquals("The longest wait of read-your-writes must not be negative: PT-1S", refused.getMessage());
        assertEquals(new ReadYourWrites.Settings(true, Duration.ofSeconds(2)), ReadYourWrites.Settings.DEFAULT);
    }

    @Test
    void anAnswerOfTheRequestClientIsWhatRecordsAWrite() {
        written.answered(JsonParser.parseString("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"namespace\":\"ops\","
                + "\"name\":\"a\",\"resourceVersion\":\"8\"}}").getAsJsonObject());
        source.add(map("ops", "a", "5"));
        reads(Duration.ofMillis(50)).awaitKey("c", source, new ObjectKey("ops", "a"));
        assertEquals(List.of("c timed out"), waits);
    }
}
