package dev.mooring.runtime.internal;

import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;

/** Conversions between client-java models and JSON, with client-java's own serialization. */
public final class Models {

    private Models() {
    }

    /** A deep copy of a model object. */
    @SuppressWarnings("unchecked")
    public static <T extends KubernetesObject> T copy(T object) {
        return (T) JSON.getGson().fromJson(JSON.getGson().toJsonTree(object), object.getClass());
    }

    /** The model of a JSON object, with apiVersion and kind filled in when the JSON lacks them (list items). */
    public static <T extends KubernetesObject> T fromJson(JsonObject json, ResourceType<T> type) {
        if (!json.has("apiVersion")) {
            json.addProperty("apiVersion", type.apiVersion());
        }
        if (!json.has("kind")) {
            json.addProperty("kind", type.kind());
        }
        return JSON.getGson().fromJson(json, type.modelClass());
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
