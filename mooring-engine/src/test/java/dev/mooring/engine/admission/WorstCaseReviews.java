package dev.mooring.engine.admission;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * AdmissionReviews of the shapes that cost a JSON decoder most per byte, each as large as the
 * limits allow within {@link AdmissionDispatcher#MAX_BODY_BYTES}: a valid review whose object
 * carries the shape in a member its model does not declare (so that decoding the model skips it),
 * plus, for reference, one of plain numbers. Shared with the integration tests (the engine's test
 * jar).
 */
public final class WorstCaseReviews {

    /** The room a shape may take: the body limit less the envelope around it and some slack. */
    private static final int ROOM = AdmissionDispatcher.MAX_BODY_BYTES - 4096;
    /** Stays under the limit of values in a document, with room for the envelope's. */
    private static final int VALUES = AdmissionDispatcher.LIMITS.maxValues() - 1000;
    private static final int MEMBERS = AdmissionDispatcher.LIMITS.maxMembers();

    private WorstCaseReviews() {
    }

    /** The reviews, by shape, of Widget CREATEs (example.com/v1) in {@code namespace}: see {@link #widget}. */
    public static Map<String, byte[]> all(String namespace) {
        return all(payload -> widget(namespace, payload));
    }

    /**
     * The reviews, by shape.
     *
     * @param review a valid review with the payload (a JSON value) in a member its model does not declare
     */
    public static Map<String, byte[]> all(java.util.function.UnaryOperator<String> review) {
        Map<String, String> payloads = new LinkedHashMap<>();
        payloads.put("numbers (reference)", arrays(i -> Integer.toString(i % 10), 2));
        payloads.put("empty strings", arrays(i -> "\"\"", 3));
        payloads.put("empty objects", arrays(i -> "{}", 3));
        payloads.put("empty arrays", arrays(i -> "[]", 3));
        payloads.put("deep nesting", deep());
        payloads.put("long keys", longKeys());
        payloads.put("many members", manyMembers());
        payloads.put("escapes", escapes());
        payloads.put("short escaped strings", arrays(i -> "\"\\n\"", 5));
        payloads.put("one long string", "\"" + "x".repeat(AdmissionDispatcher.LIMITS.maxStringLength()) + "\"");
        Map<String, byte[]> reviews = new LinkedHashMap<>();
        payloads.forEach((shape, payload) -> {
            byte[] bytes = review.apply(payload).getBytes(StandardCharsets.UTF_8);
            if (bytes.length > AdmissionDispatcher.MAX_BODY_BYTES) {
                throw new IllegalStateException(shape + " is " + bytes.length + " bytes, over the limit");
            }
            reviews.put(shape, bytes);
        });
        return reviews;
    }

    /** A valid Widget CREATE review carrying {@code payload} as {@code spec.payload}. */
    public static String widget(String namespace, String payload) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"worst\","
                + "\"kind\":{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Widget\"},"
                + "\"resource\":{\"group\":\"example.com\",\"version\":\"v1\",\"resource\":\"widgets\"},"
                + "\"name\":\"w\",\"namespace\":\"" + namespace + "\",\"operation\":\"CREATE\",\"userInfo\":{\"username\":\"u\"},"
                + "\"object\":{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},"
                + "\"spec\":{\"color\":\"green\",\"payload\":" + payload + "}}}}";
    }

    /** Arrays of at most the members allowed, of {@code item}s of {@code width} bytes plus a comma, filling the room. */
    private static String arrays(IntFunction<String> item, int width) {
        int items = Math.min(VALUES - VALUES / MEMBERS - 1, ROOM / (width + 1));
        StringBuilder out = new StringBuilder(ROOM).append('[');
        for (int i = 0; i < items; i++) {
            if (i % MEMBERS == 0) {
                out.append(i == 0 ? "[" : "],[");
            } else {
                out.append(',');
            }
            out.append(item.apply(i));
        }
        return out.append("]]").toString();
    }

    /** As many nests of the deepest allowed nesting as the values allow. */
    private static String deep() {
        int depth = AdmissionDispatcher.LIMITS.maxDepth() - 10;
        String nest = "[".repeat(depth) + "]".repeat(depth);
        int nests = Math.min(ROOM / (nest.length() + 1), Math.min(VALUES / depth, MEMBERS));
        StringBuilder out = new StringBuilder(ROOM).append('[');
        for (int i = 0; i < nests; i++) {
            out.append(i == 0 ? "" : ",").append(nest);
        }
        return out.append(']').toString();
    }

    /** One object whose member names are as long as names may be, each distinct. */
    private static String longKeys() {
        int length = 64 * 1024;
        int members = ROOM / (length + 4);
        StringBuilder out = new StringBuilder(ROOM).append('{');
        String filler = "k".repeat(length - 8);
        for (int i = 0; i < members; i++) {
            out.append(i == 0 ? "" : ",").append('"').append(String.format("%08d", i)).append(filler).append("\":0");
        }
        return out.append('}').toString();
    }

    /** Objects of the most members allowed, with short distinct names. */
    private static String manyMembers() {
        int members = Math.min(VALUES, ROOM / 14);
        StringBuilder out = new StringBuilder(ROOM).append('[');
        for (int i = 0; i < members; i++) {
            if (i % MEMBERS == 0) {
                out.append(i == 0 ? "{" : "},{");
            } else {
                out.append(',');
            }
            out.append("\"m").append(String.format("%07d", i)).append("\":0");
        }
        return out.append("}]").toString();
    }

    /** Strings made of unicode escapes only, each as long as strings may be. */
    private static String escapes() {
        int perString = Math.min(AdmissionDispatcher.LIMITS.maxStringLength(), ROOM / 6);
        int strings = Math.max(1, ROOM / (perString * 6 + 3));
        StringBuilder out = new StringBuilder(ROOM).append('[');
        String escaped = "\\u0041".repeat(perString);
        for (int i = 0; i < strings; i++) {
            out.append(i == 0 ? "" : ",").append('"').append(escaped).append('"');
        }
        return out.append(']').toString();
    }
}
