package dev.mooring.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonParser;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the cache keeps smaller reads, compares and serializes as before; copies handed out are mutable again. */
class CacheCompactionTest {

    private static final ResourceType<V1ConfigMap> CONFIG_MAPS = new ResourceType<>("", "v1", "ConfigMap", "configmaps", true,
            V1ConfigMap.class);

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
}
