package dev.mooring.api.admission;

/**
 * Rejects an admission request. The message reaches the user whose request was rejected (for
 * example in {@code kubectl}'s error), together with the HTTP-style code and reason.
 *
 * <pre>{@code
 * throw new AdmissionDenied("spec.replicas must not exceed 10");          // 403 Forbidden
 * throw new AdmissionDenied(422, "spec.size: must be positive");           // 422 Invalid
 * }</pre>
 */
public class AdmissionDenied extends Exception {

    private static final long serialVersionUID = 1L;

    private final int code;
    private final String reason;

    /**
     * A denial with code 403 and reason {@code Forbidden}.
     *
     * @throws IllegalArgumentException if the message is null or blank
     */
    public AdmissionDenied(String message) {
        this(403, message);
    }

    /**
     * A denial with the given code and the reason Kubernetes uses for it ({@code BadRequest},
     * {@code Forbidden}, {@code NotFound}, {@code Conflict}, {@code Invalid},
     * {@code TooManyRequests}, {@code InternalError}; empty for other codes).
     *
     * @throws IllegalArgumentException if the code is outside 400–599 or the message is blank
     */
    public AdmissionDenied(int code, String message) {
        this(code, reasonFor(code), message);
    }

    /**
     * A denial with an explicit reason.
     *
     * @throws IllegalArgumentException if the code is outside 400–599, the message is blank or
     *     the reason is null
     */
    public AdmissionDenied(int code, String reason, String message) {
        super(requireMessage(message));
        if (code < 400 || code > 599) {
            throw new IllegalArgumentException("A denial code must be an integer between 400 and 599, not " + code);
        }
        if (reason == null) {
            throw new IllegalArgumentException("A denial reason must not be null (use \"\" for none)");
        }
        this.code = code;
        this.reason = reason;
    }

    /** The HTTP-style status code, 400–599. */
    public int code() {
        return code;
    }

    /** The machine-readable reason, such as {@code Forbidden}; may be empty. */
    public String reason() {
        return reason;
    }

    private static String requireMessage(String message) {
        if (message == null || message.isBlank()) {
            throw new IllegalArgumentException("An admission denial needs a message");
        }
        return message;
    }

    private static String reasonFor(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 409 -> "Conflict";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            case 500 -> "InternalError";
            case 503 -> "ServiceUnavailable";
            case 504 -> "Timeout";
            default -> "";
        };
    }
}
