package dev.mooring.api.patch;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * RFC 6902 JSON Patch calculation. Pure functions: no I/O, inputs are never modified.
 */
public final class Patches {

    /**
     * One provider for every value made here: each {@code Json.*} call looks the provider up again
     * (a service-loader scan), which would make a diff cost tens of microseconds per member.
     * Providers are stateless and thread-safe.
     */
    private static final JsonProvider JSON_P = JsonProvider.provider();

    private Patches() {
    }

    /**
     * The JSON Patch that turns {@code before} into {@code after}.
     *
     * <p>Object members are compared recursively, in sorted key order: a member only in
     * {@code before} is removed, a member only in {@code after} is added, a member in both is
     * diffed. Any other difference (arrays, scalars, a change of JSON type) replaces the whole
     * value, so arrays are replaced atomically and a changed root gives the path {@code ""}.
     * Explicit {@code null} is a value. Keys are escaped as JSON Pointer tokens ({@code ~} as
     * {@code ~0}, {@code /} as {@code ~1}).
     *
     * @return the operations; empty when the documents are equal
     */
    public static JsonArray jsonPatch(JsonValue before, JsonValue after) {
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
        JsonArrayBuilder operations = JSON_P.createArrayBuilder();
        diffValues("", before, after, operations);
        return operations.build();
    }

    /**
     * The guarded patch between two copies of one fetched object: {@code original} as read from
     * the server and {@code desired}, an edited copy of it.
     *
     * <p>When anything differs, the operations start with {@code test} operations on
     * {@code /metadata/uid} and {@code /metadata/resourceVersion}, so that the API server rejects
     * the patch (with 409 or 422, see {@code KubernetesException.isConflict()}) if the object was
     * changed or replaced since it was read. Empty collections count as absent, as Kubernetes
     * treats them (client-java models cannot tell the two apart), and {@code null} fields are
     * omitted; clearing a field removes it.
     *
     * @return the operations; empty when nothing changed, meaning no write is needed
     * @throws IllegalArgumentException if {@code original} lacks {@code metadata.uid} or
     *     {@code metadata.resourceVersion}, or if the two differ in kind, name, namespace, UID or
     *     resourceVersion
     */
    public static JsonArray diff(KubernetesObject original, KubernetesObject desired) {
        Objects.requireNonNull(original, "original");
        Objects.requireNonNull(desired, "desired");
        var before = original.getMetadata();
        var after = desired.getMetadata();
        if (before == null || before.getUid() == null || before.getResourceVersion() == null) {
            throw new IllegalArgumentException(
                    "A guarded diff needs a fetched object with metadata.uid and metadata.resourceVersion");
        }
        if (after == null || !Objects.equals(original.getKind(), desired.getKind())
                || !Objects.equals(before.getName(), after.getName())
                || !Objects.equals(before.getNamespace(), after.getNamespace())) {
            throw new IllegalArgumentException("A guarded diff cannot change kind, name or namespace");
        }
        if (!before.getUid().equals(after.getUid()) || !before.getResourceVersion().equals(after.getResourceVersion())) {
            throw new IllegalArgumentException("A guarded diff cannot change metadata.uid or metadata.resourceVersion");
        }
        return guarded(original, jsonPatch(withoutEmpty(toJson(original)), withoutEmpty(toJson(desired))));
    }

    /**
     * {@code changes} to {@code original}, guarded as {@link #diff} guards them: preceded by
     * {@code test} operations on {@code /metadata/uid} and {@code /metadata/resourceVersion}.
     *
     * @return the guarded operations; empty when {@code changes} is empty
     * @throws IllegalArgumentException if {@code original} lacks {@code metadata.uid} or
     *     {@code metadata.resourceVersion}
     */
    public static JsonArray guarded(KubernetesObject original, JsonArray changes) {
        var before = original.getMetadata();
        if (before == null || before.getUid() == null || before.getResourceVersion() == null) {
            throw new IllegalArgumentException(
                    "A guarded diff needs a fetched object with metadata.uid and metadata.resourceVersion");
        }
        if (changes.isEmpty()) {
            return changes;
        }
        JsonArrayBuilder guarded = JSON_P.createArrayBuilder()
                .add(test("/metadata/uid", before.getUid()))
                .add(test("/metadata/resourceVersion", before.getResourceVersion()));
        changes.forEach(guarded::add);
        return guarded.build();
    }

    /**
     * {@code overlay} merged onto {@code base}: objects are merged member by member,
     * recursively; anything else in {@code overlay} (scalars, arrays, null) replaces what
     * {@code base} has; members absent from {@code overlay} stay as they are in {@code base}.
     * This is how {@code ensure} applies a desired child onto the live one: maps merge, lists
     * replace.
     *
     * @return a new value; the inputs are not modified
     */
    public static JsonValue merge(JsonValue base, JsonValue overlay) {
        if (base.getValueType() != JsonValue.ValueType.OBJECT || overlay.getValueType() != JsonValue.ValueType.OBJECT) {
            return overlay;
        }
        JsonObjectBuilder merged = JSON_P.createObjectBuilder(base.asJsonObject());
        for (Map.Entry<String, JsonValue> member : overlay.asJsonObject().entrySet()) {
            JsonValue existing = base.asJsonObject().get(member.getKey());
            merged.add(member.getKey(), existing == null ? member.getValue() : merge(existing, member.getValue()));
        }
        return merged.build();
    }

    /**
     * The value without empty objects and arrays among object members (recursively), the way
     * Mooring reads client-java models: an empty collection means "not specified".
     */
    public static JsonValue withoutEmptyCollections(JsonValue value) {
        return withoutEmpty(value);
    }

    /** The JSON form of a client-java model, as client-java sends it. */
    public static JsonValue toJson(Object model) {
        try (JsonReader reader = JSON_P.createReader(new StringReader(JSON.serialize(model)))) {
            return reader.readValue();
        }
    }

    /** Escape one JSON Pointer reference token (RFC 6901). */
    public static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static JsonObject test(String path, String value) {
        return JSON_P.createObjectBuilder().add("op", "test").add("path", path).add("value", value).build();
    }

    private static void diffValues(String path, JsonValue before, JsonValue after, JsonArrayBuilder out) {
        if (before.getValueType() == JsonValue.ValueType.OBJECT && after.getValueType() == JsonValue.ValueType.OBJECT) {
            JsonObject from = before.asJsonObject();
            JsonObject to = after.asJsonObject();
            TreeSet<String> keys = new TreeSet<>(from.keySet());
            keys.addAll(to.keySet());
            for (String key : keys) {
                String child = path + "/" + escape(key);
                if (!to.containsKey(key)) {
                    out.add(JSON_P.createObjectBuilder().add("op", "remove").add("path", child));
                } else if (!from.containsKey(key)) {
                    out.add(JSON_P.createObjectBuilder().add("op", "add").add("path", child).add("value", to.get(key)));
                } else {
                    diffValues(child, from.get(key), to.get(key), out);
                }
            }
        } else if (!before.equals(after)) {
            out.add(JSON_P.createObjectBuilder().add("op", "replace").add("path", path).add("value", after));
        }
    }

    /** Drops empty objects and arrays (recursively) from object members. */
    private static JsonValue withoutEmpty(JsonValue value) {
        switch (value.getValueType()) {
            case OBJECT -> {
                JsonObjectBuilder copy = JSON_P.createObjectBuilder();
                for (Map.Entry<String, JsonValue> member : value.asJsonObject().entrySet()) {
                    JsonValue cleaned = withoutEmpty(member.getValue());
                    if (!isEmptyCollection(cleaned)) {
                        copy.add(member.getKey(), cleaned);
                    }
                }
                return copy.build();
            }
            case ARRAY -> {
                JsonArrayBuilder copy = JSON_P.createArrayBuilder();
                value.asJsonArray().forEach(item -> copy.add(withoutEmpty(item)));
                return copy.build();
            }
            default -> {
                return value;
            }
        }
    }

    private static boolean isEmptyCollection(JsonValue value) {
        return (value.getValueType() == JsonValue.ValueType.OBJECT && value.asJsonObject().isEmpty())
                || (value.getValueType() == JsonValue.ValueType.ARRAY && value.asJsonArray().isEmpty());
    }
}
