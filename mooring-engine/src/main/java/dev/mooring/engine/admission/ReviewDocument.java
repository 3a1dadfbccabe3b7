package dev.mooring.engine.admission;

import dev.mooring.engine.kube.KubeNames;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code admission.k8s.io/v1} AdmissionReview as the API server sends it, read from a JSON
 * tree (see {@link BoundedJson}). Members Mooring does not use are ignored; a member of the
 * wrong type, and a name, namespace, group, version, kind or resource that breaks Kubernetes'
 * rules, is an {@link IllegalArgumentException} naming the member. The embedded objects stay
 * JSON here; they are decoded with client-java's model JSON later, so that custom types and
 * unknown fields survive.
 */
record ReviewDocument(String apiVersion, String kind, Request request) {

    /** {@code request}; {@code name}, {@code namespace} and {@code subResource} are empty when absent. */
    record Request(String uid, GroupVersionKind kind, GroupVersionResource resource, String subResource, String name,
            String namespace, String operation, User userInfo, JsonObject object, JsonObject oldObject, boolean dryRun) {
    }

    /** {@code request.kind} (also {@code requestKind}). */
    record GroupVersionKind(String group, String version, String kind) {
    }

    /** {@code request.resource}. */
    record GroupVersionResource(String group, String version, String resource) {
    }

    /** {@code request.userInfo}. */
    record User(String username, String uid, List<String> groups, Map<String, List<String>> extra) {
    }

    /**
     * Reads the review.
     *
     * @throws IllegalArgumentException naming the member that has the wrong type or breaks a name rule
     */
    static ReviewDocument of(JsonValue document) {
        JsonObject review = object(document, "the document");
        if (review == null) {
            throw new IllegalArgumentException("the document is not a JSON object");
        }
        return new ReviewDocument(string(review, "apiVersion", ""), string(review, "kind", ""),
                request(object(review.get("request"), "request")));
    }

    private static Request request(JsonObject request) {
        if (request == null) {
            return null;
        }
        String name = string(request, "name", "request.");
        String namespace = string(request, "namespace", "request.");
        String subResource = string(request, "subResource", "request.");
        if (name != null && !name.isEmpty()) {
            KubeNames.name(name, "request.name");
        }
        if (namespace != null && !namespace.isEmpty()) {
            KubeNames.namespace(namespace, "request.namespace");
        }
        if (subResource != null && !subResource.isEmpty()) {
            KubeNames.resource(subResource, "request.subResource");
        }
        JsonValue dryRun = request.get("dryRun");
        if (dryRun != null && dryRun != JsonValue.NULL && dryRun != JsonValue.TRUE && dryRun != JsonValue.FALSE) {
            throw new IllegalArgumentException("request.dryRun must be a boolean");
        }
        return new Request(string(request, "uid", "request."), kind(object(request.get("kind"), "request.kind")),
                resource(object(request.get("resource"), "request.resource")), orEmpty(subResource), orEmpty(name),
                orEmpty(namespace), string(request, "operation", "request."),
                user(object(request.get("userInfo"), "request.userInfo")), object(request.get("object"), "request.object"),
                object(request.get("oldObject"), "request.oldObject"), dryRun == JsonValue.TRUE);
    }

    private static GroupVersionKind kind(JsonObject kind) {
        if (kind == null) {
            return null;
        }
        return new GroupVersionKind(KubeNames.group(orEmpty(string(kind, "group", "request.kind.")), "request.kind.group"),
                KubeNames.version(string(kind, "version", "request.kind."), "request.kind.version"),
                KubeNames.kind(string(kind, "kind", "request.kind."), "request.kind.kind"));
    }

    private static GroupVersionResource resource(JsonObject resource) {
        if (resource == null) {
            return null;
        }
        return new GroupVersionResource(
                KubeNames.group(orEmpty(string(resource, "group", "request.resource.")), "request.resource.group"),
                KubeNames.version(string(resource, "version", "request.resource."), "request.resource.version"),
                KubeNames.resource(string(resource, "resource", "request.resource."), "request.resource.resource"));
    }

    private static User user(JsonObject user) {
        if (user == null) {
            return null;
        }
        List<String> groups = strings(user.get("groups"), "request.userInfo.groups");
        Map<String, List<String>> extra = new LinkedHashMap<>();
        JsonObject extras = object(user.get("extra"), "request.userInfo.extra");
        if (extras != null) {
            extras.forEach((key, values) -> extra.put(key, strings(values, "request.userInfo.extra")));
        }
        return new User(orEmpty(string(user, "username", "request.userInfo.")), orEmpty(string(user, "uid", "request.userInfo.")),
                groups, extra);
    }

    private static JsonObject object(JsonValue value, String member) {
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new IllegalArgumentException(member + " must be an object");
        }
        return value.asJsonObject();
    }

    private static String string(JsonObject object, String member, String prefix) {
        JsonValue value = object.get(member);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonString text)) {
            throw new IllegalArgumentException(prefix + member + " must be a string");
        }
        return text.getString();
    }

    private static List<String> strings(JsonValue value, String member) {
        List<String> strings = new ArrayList<>();
        if (value == null || value == JsonValue.NULL) {
            return strings;
        }
        if (value.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new IllegalArgumentException(member + " must be an array of strings");
        }
        for (JsonValue item : value.asJsonArray()) {
            if (!(item instanceof JsonString text)) {
                throw new IllegalArgumentException(member + " must be an array of strings");
            }
            strings.add(text.getString());
        }
        return strings;
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
