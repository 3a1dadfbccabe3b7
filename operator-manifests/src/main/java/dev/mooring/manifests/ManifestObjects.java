package dev.mooring.manifests;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dev.mooring.engine.kube.KubeNames;
import java.util.List;

/**
 * The offline check of the objects an install applies: each is a Kubernetes object whose
 * {@code apiVersion}, {@code kind}, {@code metadata.name} and {@code metadata.namespace} are
 * strings that follow Kubernetes' rules, so that none of them can steer a request path. The
 * installer checks every object before its first request; a manifests folder is checked as it is
 * read, naming the file.
 */
public final class ManifestObjects {

    private ManifestObjects() {
    }

    /**
     * @throws IllegalArgumentException naming the object (by its position) and what is wrong
     */
    public static void checkAll(List<JsonObject> objects) {
        for (int i = 0; i < objects.size(); i++) {
            check(objects.get(i), "object " + (i + 1));
        }
    }

    /**
     * @param where the object's place, for the message (a file and document number)
     * @throws IllegalArgumentException naming {@code where} and what is wrong
     */
    public static void check(JsonElement element, String where) {
        if (element == null || !element.isJsonObject()) {
            throw new IllegalArgumentException(where + " is not a Kubernetes object (apiVersion, kind, metadata)");
        }
        JsonObject object = element.getAsJsonObject();
        String apiVersion = string(object, "apiVersion", "apiVersion", where);
        String kind = string(object, "kind", "kind", where);
        if (!(object.get("metadata") instanceof JsonObject metadata)) {
            throw new IllegalArgumentException(where + " has no metadata object");
        }
        String name = string(metadata, "name", "metadata.name", where);
        String namespace = metadata.has("namespace") && !metadata.get("namespace").isJsonNull()
                ? string(metadata, "namespace", "metadata.namespace", where) : null;
        try {
            int slash = apiVersion.indexOf('/');
            if (slash < 0) {
                KubeNames.version(apiVersion, "apiVersion");
            } else {
                KubeNames.group(apiVersion.substring(0, slash), "apiVersion's group");
                KubeNames.version(apiVersion.substring(slash + 1), "apiVersion's version");
            }
            KubeNames.kind(kind, "kind");
            if (kind.equals("Namespace") && apiVersion.equals("v1")) {
                KubeNames.namespace(name, "metadata.name");
            } else {
                KubeNames.name(name, "metadata.name");
            }
            if (namespace != null) {
                KubeNames.namespace(namespace, "metadata.namespace");
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static String string(JsonObject object, String member, String label, String where) {
        JsonElement value = object.get(member);
        if (!(value instanceof JsonPrimitive primitive) || !primitive.isString()) {
            throw new IllegalArgumentException(where + " has no " + label + " string");
        }
        return primitive.getAsString();
    }
}
