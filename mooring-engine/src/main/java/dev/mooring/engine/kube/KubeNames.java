package dev.mooring.engine.kube;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Kubernetes' rules for the names that become segments of API paths, and the encoding of a
 * segment. Every path Mooring sends is built from values checked here, so that no value (from a
 * reconciled object, an admission review or a caller) can address another path than the one it
 * names. Each check throws {@link IllegalArgumentException} naming the argument and the rule.
 */
public final class KubeNames {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern KIND = Pattern.compile("[A-Za-z]([-A-Za-z0-9]*[A-Za-z0-9])?");
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private KubeNames() {
    }

    /** A namespace: a DNS-1123 label (at most 63 lowercase letters, digits and '-'). */
    public static String namespace(String value, String argument) {
        return label(value, argument, "a namespace");
    }

    /**
     * An object's name, by the rule the API server applies to the names of every kind (stricter
     * rules of a kind, such as DNS-1123 subdomains, are the server's to check): 1 to 253
     * characters, not {@code .} or {@code ..}, without {@code /} or {@code %}, no control characters.
     */
    public static String name(String value, String argument) {
        if (value == null || value.isEmpty() || value.length() > 253 || value.equals(".") || value.equals("..")
                || value.indexOf('/') >= 0 || value.indexOf('%') >= 0 || value.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw invalid(argument, value, "a Kubernetes object name (1 to 253 characters, not '.' or '..', without '/', '%'"
                    + " or control characters)");
        }
        return value;
    }

    /** A resource (plural) or subresource name: a DNS-1123 label. */
    public static String resource(String value, String argument) {
        return label(value, argument, "a resource name");
    }

    /** An API group: empty (the core group) or a DNS-1123 subdomain. */
    public static String group(String value, String argument) {
        if (value != null && value.isEmpty()) {
            return value;
        }
        if (value == null || value.length() > 253 || !DNS_SUBDOMAIN.matcher(value).matches()) {
            throw invalid(argument, value, "an API group (empty, or a DNS-1123 subdomain)");
        }
        return value;
    }

    /** An API version such as {@code v1beta1}: a DNS-1123 label. */
    public static String version(String value, String argument) {
        return label(value, argument, "an API version");
    }

    /** A kind such as {@code ConfigMap}: letters, digits and '-', starting with a letter, at most 63. */
    public static String kind(String value, String argument) {
        if (value == null || value.length() > 63 || !KIND.matcher(value).matches()) {
            throw invalid(argument, value, "a kind (a letter, then letters, digits or '-'; at most 63 characters)");
        }
        return value;
    }

    /** {@code segment} percent-encoded for a URL path: every byte but RFC 3986's unreserved characters. */
    public static String segment(String segment) {
        StringBuilder encoded = new StringBuilder(segment.length());
        for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                encoded.append(c);
            } else {
                encoded.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return encoded.toString();
    }

    private static String label(String value, String argument, String what) {
        if (value == null || value.length() > 63 || !DNS_LABEL.matcher(value).matches()) {
            throw invalid(argument, value, what + " (a DNS-1123 label: 1 to 63 lowercase letters, digits or '-',"
                    + " starting and ending with a letter or digit)");
        }
        return value;
    }

    private static IllegalArgumentException invalid(String argument, String value, String rule) {
        return new IllegalArgumentException(argument + " " + quote(value) + " is not " + rule);
    }

    /** The value for a message: quoted, control characters escaped, at most 80 characters. */
    private static String quote(String value) {
        if (value == null) {
            return "(missing)";
        }
        StringBuilder shown = new StringBuilder("'");
        value.codePoints().limit(80).forEach(c -> {
            if (c < 0x20 || c == 0x7f) {
                shown.append(String.format("\\u%04x", c));
            } else {
                shown.appendCodePoint(c);
            }
        });
        return shown.append(value.codePointCount(0, value.length()) > 80 ? "...'" : "'").toString();
    }
}
