package dev.mooring.api.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PatchesTest {

    private static JsonValue json(String text) {
        return Json.createReader(new StringReader(text.replace('\'', '"'))).readValue();
    }

    @Test
    void equalDocumentsGiveNoOperations() {
        assertEquals(0, Patches.jsonPatch(json("{'a':[1,2],'b':{'c':null}}"), json("{'b':{'c':null},'a':[1,2]}")).size());
    }

    @Test
    void objectMembersAreDiffedInSortedOrderAndArraysReplacedWhole() {
        JsonArray ops = Patches.jsonPatch(json("{'z':1,'a':{'x':1,'y':2},'l':[1,2]}"),
                json("{'a':{'x':1,'w':3},'l':[1,2,3],'n':null}"));
        assertEquals(json("""
                [{'op':'add','path':'/a/w','value':3},
                 {'op':'remove','path':'/a/y'},
                 {'op':'replace','path':'/l','value':[1,2,3]},
                 {'op':'add','path':'/n','value':null},
                 {'op':'remove','path':'/z'}]"""), ops);
    }

    @Test
    void pointerTokensAreEscaped() {
        JsonArray ops = Patches.jsonPatch(json("{}"), json("{'a/b~c':1}"));
        assertEquals("/a~1b~0c", ops.getJsonObject(0).getString("path"));
    }

    @Test
    void aChangedRootIsReplacedAtTheEmptyPath() {
        JsonArray ops = Patches.jsonPatch(json("[1]"), json("{'a':1}"));
        assertEquals(json("[{'op':'replace','path':'','value':{'a':1}}]"), ops);
    }

    /** Property: applying jsonPatch(before, after) to before yields after, for many random pairs. */
    @Test
    void patchAppliedToBeforeGivesAfter() {
        Random random = new Random(42);
        for (int i = 0; i < 2000; i++) {
            JsonValue before = randomValue(random, 3);
            JsonValue after = random.nextInt(4) == 0 ? randomValue(random, 3) : mutate(before, random, 3);
            JsonArray ops = Patches.jsonPatch(wrapped(before), wrapped(after));
            JsonValue patched = Json.createPatch(ops).apply(wrapped(before));
            assertEquals(wrapped(after), patched, "pair " + i + ": " + before + " -> " + after + " via " + ops);
            assertEquals(before.equals(after), Patches.jsonPatch(before, after).isEmpty());
        }
    }

    private static jakarta.json.JsonObject wrapped(JsonValue v) {
        return Json.createObjectBuilder().add("r", v).build();
    }

    @Test
    void mergeMergesObjectsAndReplacesEverythingElse() {
        JsonValue base = json("{'labels':{'a':'1','b':'2'},'list':[1,2],'keep':true,'n':{'x':{'y':1}}}");
        JsonValue overlay = json("{'labels':{'b':'changed','c':'3'},'list':[3],'n':{'x':{'z':2}},'new':null}");
        assertEquals(json("{'labels':{'a':'1','b':'changed','c':'3'},'list':[3],'keep':true,'n':{'x':{'y':1,'z':2}},'new':null}"),
                Patches.merge(base, overlay));
        assertEquals(json("[1]"), Patches.merge(json("{'a':1}"), json("[1]")));
    }

    @Test
    void emptyCollectionsAreDroppedRecursively() {
        assertEquals(json("{'a':{'b':1},'l':[{}]}"),
                Patches.withoutEmptyCollections(json("{'a':{'b':1,'c':{},'d':[]},'e':{'f':{}},'l':[{}]}")));
    }

    @Test
    void diffIsGuardedByUidAndResourceVersion() {
        V1ConfigMap original = configMap(Map.of("a", "1"));
        V1ConfigMap desired = configMap(Map.of("a", "2", "b/c", "3"));
        JsonArray ops = Patches.diff(original, desired);
        assertEquals(json("""
                [{'op':'test','path':'/metadata/uid','value':'u-1'},
                 {'op':'test','path':'/metadata/resourceVersion','value':'7'},
                 {'op':'replace','path':'/data/a','value':'2'},
                 {'op':'add','path':'/data/b~1c','value':'3'}]"""), ops);
    }

    @Test
    void diffOfEqualCopiesIsEmpty() {
        assertEquals(0, Patches.diff(configMap(Map.of("a", "1")), configMap(Map.of("a", "1"))).size());
    }

    @Test
    void emptyCollectionsCountAsAbsent() {
        V1ConfigMap withoutData = configMap(null);
        V1ConfigMap emptyData = configMap(Map.of());
        assertEquals(0, Patches.diff(withoutData, emptyData).size());
        // Adding to an absent map adds the whole map, which works whether or not the server has it.
        JsonArray ops = Patches.diff(emptyData, configMap(Map.of("k", "v")));
        assertEquals(json("{'op':'add','path':'/data','value':{'k':'v'}}"), ops.get(2));
        // Clearing a map removes it.
        JsonArray clear = Patches.diff(configMap(Map.of("k", "v")), emptyData);
        assertEquals(json("{'op':'remove','path':'/data'}"), clear.get(2));
    }

    @Test
    void diffRejectsIdentityChangesAndUnfetchedObjects() {
        V1ConfigMap original = configMap(Map.of());
        V1ConfigMap renamed = configMap(Map.of());
        renamed.getMetadata().setName("other");
        assertThrows(IllegalArgumentException.class, () -> Patches.diff(original, renamed));
        V1ConfigMap newVersion = configMap(Map.of());
        newVersion.getMetadata().setResourceVersion("8");
        assertThrows(IllegalArgumentException.class, () -> Patches.diff(original, newVersion));
        V1ConfigMap unfetched = configMap(Map.of());
        unfetched.getMetadata().setUid(null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Patches.diff(unfetched, original));
        assertTrue(e.getMessage().contains("metadata.uid"));
    }

    private static V1ConfigMap configMap(Map<String, String> data) {
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().name("cm").namespace("ns").uid("u-1").resourceVersion("7"))
                .data(data == null ? null : new java.util.TreeMap<>(data));
    }

    private static JsonValue randomValue(Random random, int depth) {
        int kind = depth == 0 ? random.nextInt(4) : random.nextInt(6);
        return switch (kind) {
            case 0 -> Json.createValue(random.nextInt(5));
            case 1 -> Json.createValue(random.nextBoolean() ? "s" : "a/~b");
            case 2 -> JsonValue.NULL;
            case 3 -> random.nextBoolean() ? JsonValue.TRUE : JsonValue.FALSE;
            case 4 -> {
                JsonArrayBuilder array = Json.createArrayBuilder();
                for (int i = random.nextInt(3); i > 0; i--) {
                    array.add(randomValue(random, depth - 1));
                }
                yield array.build();
            }
            default -> {
                JsonObjectBuilder object = Json.createObjectBuilder();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.add(KEYS[random.nextInt(KEYS.length)], randomValue(random, depth - 1));
                }
                yield object.build();
            }
        };
    }

    private static final String[] KEYS = {"a", "b", "c/d", "e~f", ""};

    private static JsonValue mutate(JsonValue value, Random random, int depth) {
        if (value.getValueType() != JsonValue.ValueType.OBJECT || random.nextInt(5) == 0) {
            return randomValue(random, depth);
        }
        JsonObjectBuilder copy = Json.createObjectBuilder(value.asJsonObject());
        for (String key : value.asJsonObject().keySet()) {
            switch (random.nextInt(4)) {
                case 0 -> copy.remove(key);
                case 1 -> copy.add(key, mutate(value.asJsonObject().get(key), random, Math.max(0, depth - 1)));
                default -> { }
            }
        }
        if (random.nextBoolean()) {
            copy.add(KEYS[random.nextInt(KEYS.length)], randomValue(random, Math.max(0, depth - 1)));
        }
        return copy.build();
    }
}
