package dev.mooring.engine.client;

import io.kubernetes.client.common.KubernetesObject;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * What tells {@code apply} that a child needs no request, from the cache alone: the cached child
 * holds every field the desired object sets, with its value ({@link #holds}), and the set of fields
 * this controller applies is the one it applied last ({@link #mark}: a digest of the field paths in
 * an annotation of the child, written by the apply itself). A field dropped from the desired object
 * changes the digest, so the next pass applies and the API server removes the field; the cache keeps
 * no {@code managedFields} for this.
 *
 * <p>Why not the field manager's {@code managedFields} entry: the caches strip {@code managedFields}
 * (they are often the larger part of an object), and keeping one entry per child would keep its
 * whole field set; a digest is 23 characters.
 */
public final class AppliedFields {

    /** The annotation holding the digest of the field paths of the last apply. */
    public static final String ANNOTATION = "apply.mooring.dev/fields";

    private AppliedFields() {
    }

    /**
     * Puts into {@code want}'s annotations the digest of the field paths its desired JSON sets (the
     * annotation itself left out), and returns that digest.
     */
    static String mark(KubernetesObject want) {
        JsonValue desired = Children.desiredJson(want);
        List<String> paths = new ArrayList<>();
        leaves(desired, "", paths);
        paths.removeIf(path -> path.equals("/metadata/annotations/" + ANNOTATION.replace("/", "~1")));
        paths.sort(null);
        String digest = "sha256:" + sha256(String.join("\n", paths)).substring(0, 16);
        want.getMetadata().putAnnotationsItem(ANNOTATION, digest);
        return digest;
    }

    /**
     * True when {@code have} holds {@code want}: every member of an object in {@code want} is in
     * {@code have} and holds its value; arrays have the same length and hold element by element;
     * numbers are equal as numbers; other values are equal. Members {@code have} has beyond
     * {@code want} (the server's defaults, other managers' fields) do not matter.
     */
    static boolean holds(JsonValue have, JsonValue want) {
        switch (want.getValueType()) {
            case OBJECT -> {
                if (have.getValueType() != JsonValue.ValueType.OBJECT) {
                    return false;
                }
                JsonObject object = have.asJsonObject();
                for (var member : want.asJsonObject().entrySet()) {
                    JsonValue value = object.get(member.getKey());
                    if (value == null || !holds(value, member.getValue())) {
                        return false;
                    }
                }
                return true;
            }
            case ARRAY -> {
                if (have.getValueType() != JsonValue.ValueType.ARRAY || have.asJsonArray().size() != want.asJsonArray().size()) {
                    return false;
                }
                for (int i = 0; i < want.asJsonArray().size(); i++) {
                    if (!holds(have.asJsonArray().get(i), want.asJsonArray().get(i))) {
                        return false;
                    }
                }
                return true;
            }
            case NUMBER -> {
                return have instanceof JsonNumber number && number.bigDecimalValue().compareTo(((JsonNumber) want).bigDecimalValue()) == 0;
            }
            default -> {
                return want.equals(have);
            }
        }
    }

    private static void leaves(JsonValue value, String path, List<String> paths) {
        switch (value.getValueType()) {
            case OBJECT -> value.asJsonObject().forEach((name, member) -> leaves(member, path + "/" + escape(name), paths));
            case ARRAY -> {
                for (int i = 0; i < value.asJsonArray().size(); i++) {
                    leaves(value.asJsonArray().get(i), path + "/" + i, paths);
                }
            }
            default -> paths.add(path);
        }
    }

    /** A JSON Pointer segment: {@code ~} as {@code ~0}, {@code /} as {@code ~1}. */
    private static String escape(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
