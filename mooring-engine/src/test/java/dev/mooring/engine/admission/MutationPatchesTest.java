package dev.mooring.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

/** The patch of a mutator leads from the object as sent to the edit, whatever the model does not know. */
class MutationPatchesTest {

    @Test
    void changesReachTheSentObjectAndUnknownFieldsStay() {
        JsonObject sent = object("{\"metadata\":{\"name\":\"w\",\"annotations\":{\"a\":\"1\"}},\"spec\":{\"size\":1,\"unknown\":[1,2]},"
                + "\"status\":{\"x\":true}}");
        JsonValue decoded = object("{\"metadata\":{\"name\":\"w\",\"annotations\":{\"a\":\"1\"},\"finalizers\":[]},\"spec\":{\"size\":1}}");
        JsonValue returned = object("{\"metadata\":{\"name\":\"w\",\"labels\":{\"l\":\"v\"},\"finalizers\":[]},\"spec\":{\"size\":3}}");
        JsonArray patch = MutationPatches.between(sent, decoded, returned);
        JsonValue patched = Json.createPatch(patch).apply(sent);
        assertEquals(object("{\"metadata\":{\"name\":\"w\",\"labels\":{\"l\":\"v\"}},\"spec\":{\"size\":3,\"unknown\":[1,2]},"
                + "\"status\":{\"x\":true}}"), patched);
    }

    @Test
    void listsAreReplacedAndNothingChangedMeansNoPatch() {
        JsonObject sent = object("{\"spec\":{\"items\":[\"a\",\"b\"],\"extra\":1}}");
        JsonValue decoded = object("{\"spec\":{\"items\":[\"a\",\"b\"]}}");
        assertTrue(MutationPatches.between(sent, decoded, decoded).isEmpty());
        JsonArray patch = MutationPatches.between(sent, decoded, object("{\"spec\":{\"items\":[\"b\"]}}"));
        assertEquals(object("{\"spec\":{\"items\":[\"b\"],\"extra\":1}}"), Json.createPatch(patch).apply(sent));
    }

    private static JsonObject object(String json) {
        return AdmissionDispatcherTest.parse(json).asJsonObject();
    }
}
