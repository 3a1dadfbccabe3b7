package dev.mooring.engine.admission;

import dev.mooring.api.patch.Patches;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * The JSON Patch a mutating webhook answers with. A model class may not know every field of the
 * object the API server sent (a newer API version, another operator's additions), so the patch
 * is not the difference between two models: the changes the method made to its model (from the
 * decoded snapshot to the returned object, as a JSON merge diff) are applied to the object as
 * sent, and the patch leads from the object as sent to that result. Fields the model does not
 * know are therefore never touched.
 */
final class MutationPatches {

    private MutationPatches() {
    }

    /**
     * @param sent the object in the AdmissionReview, as sent
     * @param decoded the model decoded from {@code sent}, serialized before the method ran
     * @param returned the object the method returned, serialized
     * @return the operations from {@code sent} to the mutated object; empty when nothing changed
     */
    static JsonArray between(JsonObject sent, JsonValue decoded, JsonValue returned) {
        JsonValue changes = Json.createMergeDiff(decoded, returned).toJsonValue();
        JsonValue mutated = Json.createMergePatch(changes).apply(sent);
        return Patches.jsonPatch(sent, mutated);
    }
}
