package dev.mooring.engine.informer;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonParser;
import dev.mooring.engine.kube.Models;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the cache keeps smaller reads, compares and serializes as before; copies handed out are mutable again. */
class CacheCompactionTest {


    private static V1ConfigMap decode(String name, String data) {
        return CachedObjects.decode(JsonParser.parseString("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name + "\",\"namespace\":\"shop\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\"7\","
                + "\"creationTimestamp\":\"2026-12-04T10:00:00Z\"},\"data\":" + data + "}").getAsJsonObject(), CONFIG_MAPS);
    }

    @Test
    void emptyCollectionsAndOneEntryMapsAreSharedOrImmutableAndTheObjectReadsAsBefore() {
        V1ConfigMap received = decode("a", "{\"k\":\"v\"}");
        V1ConfigMap cached = new CacheCompaction().compact(decode("a", "{\"k\":\"v\"}"));
        assertEquals(received, cached, "equal to what was decoded");
        assertEquals(Models.toJson(received), Models.toJson(cached), "serialized the same");
        assertSame(Map.of(), cached.getMetadata().getLabels());
        assertSame(Map.of(), cached.getMetadata().getAnnotations());
        assertSame(List.of(), cached.getMetadata().getFinalizers());
        assertSame(List.of(), cached.getMetadata().getOwnerReferences());
        assertSame(Map.of(), cached.getBinaryData(), "a top-level map of the model too");
        assertEquals(Map.of("k", "v"), cached.getData());
        assertThrows(UnsupportedOperationException.class, () -> cached.getData().put("x", "y"), "the cache's own object is not for changing");
    }

    @Test
    void copiesHandedOutAreMutableAgain() {
        V1ConfigMap copy = Models.copy(new CacheCompaction().compact(decode("a", "{\"k\":\"v\"}")));
        copy.getMetadata().putLabelsItem("team", "blue");
        copy.getMetadata().getFinalizers().add("example.com/cleanup");
        copy.getData().put("x", "y");
        assertEquals(Map.of("team", "blue"), copy.getMetadata().getLabels());
        assertEquals(Map.of("k", "v", "x", "y"), copy.getData());
    }

    @Test
    void objectsCreatedTheSameSecondShareOneTimestampAndLargerMapsAreLeftAlone() {
        CacheCompaction compaction = new CacheCompaction();
        V1ConfigMap a = compaction.compact(decode("a", "{\"k\":\"v\",\"l\":\"w\"}"));
        V1ConfigMap b = compaction.compact(decode("b", "{}"));
        assertNotSame(decode("a", "{}").getMetadata().getCreationTimestamp(), decode("b", "{}").getMetadata().getCreationTimestamp());
        assertSame(a.getMetadata().getCreationTimestamp(), b.getMetadata().getCreationTimestamp());
        assertEquals(Map.of("k", "v", "l", "w"), a.getData());
        a.getData().put("m", "x"); // two entries: Gson's map, as decoded
        assertSame(Map.of(), b.getData());
    }

    /** A model with every kind of top-level field: only the settable Map and List fields are compacted. */
    static final class Odd implements io.kubernetes.client.common.KubernetesObject {
        static Map<String, String> shared = new java.util.HashMap<>();
        final List<String> fixed = new java.util.ArrayList<>();
        Map<String, String> data = new java.util.HashMap<>();
        List<String> items = new java.util.ArrayList<>();
        java.util.Set<String> tags = new java.util.HashSet<>();
        io.kubernetes.client.openapi.models.V1ObjectMeta metadata = new io.kubernetes.client.openapi.models.V1ObjectMeta().name("odd");

        @Override
        public io.kubernetes.client.openapi.models.V1ObjectMeta getMetadata() {
            return metadata;
        }

        @Override
        public String getApiVersion() {
            return "example.com/v1";
        }

        @Override
        public String getKind() {
            return "Odd";
        }
    }

    @Test
    void onlyAModelsSettableMapAndListFieldsAreCompacted() {
        Odd odd = new Odd();
        Map<String, String> shared = Odd.shared;
        List<String> fixed = odd.fixed;
        java.util.Set<String> tags = odd.tags;
        new CacheCompaction().compact(odd);
        assertSame(Map.of(), odd.data);
        assertSame(List.of(), odd.items);
        assertSame(fixed, odd.fixed, "a final field is left as it is");
        assertSame(shared, Odd.shared, "a static field is not the object's");
        assertSame(tags, odd.tags, "neither a Map nor a List");
    }

    @Test
    void theMostRecent256CreationTimesAreShared() {
        CacheCompaction compaction = new CacheCompaction();
        java.time.OffsetDateTime first = java.time.OffsetDateTime.parse("2026-12-04T10:00:00Z");
        java.util.List<java.time.OffsetDateTime> kept = new java.util.ArrayList<>();
        for (int second = 0; second < 256; second++) {
            kept.add(compaction.compact(created("m" + second, first.plusSeconds(second))).getMetadata().getCreationTimestamp());
        }
        assertSame(kept.get(0), compaction.compact(created("again", first)).getMetadata().getCreationTimestamp(),
                "256 distinct times are all kept: the first is shared still");
        compaction.compact(created("newer", first.plusSeconds(1000)));
        java.time.OffsetDateTime late = compaction.compact(created("late", first.plusSeconds(1))).getMetadata().getCreationTimestamp();
        assertEquals(first.plusSeconds(1), late);
        assertNotSame(kept.get(1), late, "the 257th dropped the least recently used (the first was just used)");
    }

    private static V1ConfigMap created(String name, java.time.OffsetDateTime time) {
        return new V1ConfigMap().metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().name(name)
                .creationTimestamp(java.time.OffsetDateTime.parse(time.toString())));
    }
}
