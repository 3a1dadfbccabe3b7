package dev.mooring.engine;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;

/** How an informer turns the JSON of a listed or watched object into what its cache keeps. */
final class CachedObjects {

    private CachedObjects() {
    }

    /**
     * The model of {@code json}, without {@code metadata.managedFields} (null), as
     * controller-runtime's caches strip them: they are often the larger part of an object and no
     * reconcile decision needs them. A live read ({@code ResourceClient.get}) returns them.
     */
    static <T extends KubernetesObject> T decode(JsonObject json, ResourceType<T> type) {
        if (json.get("metadata") instanceof JsonObject metadata) {
            metadata.remove("managedFields");
        }
        T object = Models.fromJson(json, type);
        if (object.getMetadata() != null) {
            object.getMetadata().setManagedFields(null);
        }
        return object;
    }

    /** A string member of a list's or bookmark's metadata, or null when absent or JSON null. */
    static String string(JsonObject object, String member) {
        JsonElement value = object == null ? null : object.get(member);
        return value == null || value.isJsonNull() ? null : value.getAsString();
    }
}
