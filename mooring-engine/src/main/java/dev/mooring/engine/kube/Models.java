package dev.mooring.engine.kube;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ManagedFieldsEntry;
import java.util.ArrayList;
import java.util.List;

/** Conversions between client-java models and JSON, with client-java's own serialization. */
public final class Models {

    private Models() {
    }

    /** A deep copy of a model object: it shares no mutable part with the original. */
    public static <T extends KubernetesObject> T copy(T object) {
        return ModelCopier.copy(object);
    }

    /**
     * The model of a JSON object, with apiVersion and kind filled in when the JSON lacks them (list items).
     *
     * @throws IllegalArgumentException if the JSON does not fit the model; its message names the
     *     object and the problem but holds no value of the document (which may be a Secret's)
     */
    public static <T extends KubernetesObject> T fromJson(JsonObject json, ResourceType<T> type) {
        if (!json.has("apiVersion")) {
            json.addProperty("apiVersion", type.apiVersion());
        }
        if (!json.has("kind")) {
            json.addProperty("kind", type.kind());
        }
        try {
            T object = JSON.getGson().fromJson(json, type.modelClass());
            keepManagedFields(json, object);
            return object;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(describe(json) + " cannot be read as " + type.modelClass().getSimpleName()
                    + ": " + dev.mooring.api.Manifests.decodeFailure(e));
        }
    }

    /**
     * client-java's JSON reads {@code metadata.managedFields} as an empty list (and never writes
     * it): the entries are read here, one by one, so that a live read shows who manages which
     * field. They never go back to the server through a model: patches are computed from other
     * fields, and server-side apply documents leave them out as the API requires.
     */
    private static void keepManagedFields(JsonObject json, KubernetesObject object) {
        if (!(json.get("metadata") instanceof JsonObject metadata) || !(metadata.get("managedFields") instanceof JsonArray entries)
                || object == null || object.getMetadata() == null) {
            return;
        }
        List<V1ManagedFieldsEntry> managed = new ArrayList<>(entries.size());
        for (JsonElement entry : entries) {
            managed.add(JSON.getGson().fromJson(entry, V1ManagedFieldsEntry.class));
        }
        object.getMetadata().setManagedFields(managed);
    }

    /** Kind, namespace, name and uid of a JSON object, as far as they are strings. */
    public static String describe(JsonObject json) {
        JsonObject metadata = json.get("metadata") instanceof JsonObject m ? m : new JsonObject();
        StringBuilder text = new StringBuilder(shortString(json, "kind", "object"));
        String namespace = shortString(metadata, "namespace", null);
        text.append(' ').append(namespace == null ? "" : namespace + "/").append(shortString(metadata, "name", "(no name)"));
        String uid = shortString(metadata, "uid", null);
        return uid == null ? text.toString() : text.append(" uid ").append(uid).toString();
    }

    private static String shortString(JsonObject json, String member, String otherwise) {
        com.google.gson.JsonElement value = json.get(member);
        if (value == null || !value.isJsonPrimitive() || !value.getAsJsonPrimitive().isString()) {
            return otherwise;
        }
        String text = value.getAsString().replaceAll("[\\p{Cntrl}]", "?");
        return text.length() <= 63 ? text : text.substring(0, 63) + "...";
    }

    private static final java.time.format.DateTimeFormatter MICRO_TIME = java.time.format.DateTimeFormatter
            .ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(java.time.ZoneOffset.UTC);

    /** A Kubernetes MicroTime: UTC, ISO-8601 with microseconds. */
    public static String microTime(java.time.Instant instant) {
        return MICRO_TIME.format(instant);
    }

    /** The JSON text of a model object. */
    public static String toJson(Object model) {
        return JSON.serialize(model);
    }
}
