package dev.mooring.engine.informer;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
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
        if (type.isMetadataOnly()) {
            // the server's PartialObjectMetadata names its own kind; the cache names the kind watched
            json.addProperty("apiVersion", type.apiVersion());
            json.addProperty("kind", type.kind());
        }
        shareRepeatedStrings(json);
        if (json.get("metadata") instanceof JsonObject metadata) {
            metadata.remove("managedFields");
        }
        T object = Models.fromJson(json, type);
        if (object.getMetadata() != null) {
            object.getMetadata().setManagedFields(null);
        }
        return object;
    }

    /**
     * Makes the strings that nearly every cached object repeats (apiVersion, kind, namespace, the
     * keys of labels and annotations, owner references' apiVersion and kind, finalizers) the
     * JVM's canonical instances, before decoding (the model keeps the JSON's instances): 100,000
     * objects of one kind in one namespace then hold one copy of each, not 100,000. Values of
     * labels and annotations are left alone: they may be unique per object.
     */
    private static void shareRepeatedStrings(JsonObject json) {
        share(json, "apiVersion");
        share(json, "kind");
        if (!(json.get("metadata") instanceof JsonObject metadata)) {
            return;
        }
        share(metadata, "namespace");
        shareKeys(metadata, "labels");
        shareKeys(metadata, "annotations");
        if (metadata.get("ownerReferences") instanceof JsonArray owners) {
            for (JsonElement owner : owners) {
                if (owner instanceof JsonObject reference) {
                    share(reference, "apiVersion");
                    share(reference, "kind");
                }
            }
        }
        if (metadata.get("finalizers") instanceof JsonArray finalizers) {
            for (int i = 0; i < finalizers.size(); i++) {
                if (finalizers.get(i) instanceof JsonPrimitive finalizer && finalizer.isString()) {
                    finalizers.set(i, new JsonPrimitive(finalizer.getAsString().intern()));
                }
            }
        }
    }

    private static void share(JsonObject object, String member) {
        if (object.get(member) instanceof JsonPrimitive value && value.isString()) {
            object.addProperty(member, value.getAsString().intern());
        }
    }

    private static void shareKeys(JsonObject object, String member) {
        if (!(object.get(member) instanceof JsonObject map) || map.size() == 0) {
            return;
        }
        JsonObject shared = new JsonObject();
        for (java.util.Map.Entry<String, JsonElement> entry : map.entrySet()) {
            shared.add(entry.getKey().intern(), entry.getValue());
        }
        object.add(member, shared);
    }

    /** A string member of a list's or bookmark's metadata, or null when absent or JSON null. */
    static String string(JsonObject object, String member) {
        JsonElement value = object == null ? null : object.get(member);
        return value == null || value.isJsonNull() ? null : value.getAsString();
    }
}
