package dev.mooring.api.client;

/**
 * A request to the Kubernetes API server failed.
 *
 * <p>{@link #code()} is the HTTP status (0 when no response arrived), {@link #reason()} the
 * {@code Status.reason} the server gave (for example {@code Conflict}, {@code NotFound},
 * {@code Invalid}), and the message names the request and the server's explanation.
 */
public class KubernetesException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;
    private final String reason;
    private final boolean conflict;

    /**
     * @param code the HTTP status, or 0 when the request did not get a response
     * @param reason the server's {@code Status.reason}, or an empty string
     * @param message what failed and why
     * @param cause the underlying failure, may be null
     */
    public KubernetesException(int code, String reason, String message, Throwable cause) {
        this(code, reason, message, cause, false);
    }

    /**
     * @param conflict whether the request lost a race with another writer even though the code
     *     is not 409 (a failed JSON Patch {@code test} is answered with 422)
     */
    public KubernetesException(int code, String reason, String message, Throwable cause, boolean conflict) {
        super(message, cause);
        this.code = code;
        this.reason = reason == null ? "" : reason;
        this.conflict = conflict;
    }

    /** The HTTP status code, or 0 when no response was received (connection failure, timeout). */
    public int code() {
        return code;
    }

    /** The server's {@code Status.reason}, or an empty string when it gave none. */
    public String reason() {
        return reason;
    }

    /** True for 404 Not Found. */
    public boolean isNotFound() {
        return code == 404;
    }

    /**
     * True when the write lost a race with another writer: 409 Conflict, or 422 from a failed
     * JSON Patch {@code test} operation on {@code uid} or {@code resourceVersion}. Retry from
     * fresh state.
     */
    public boolean isConflict() {
        return code == 409 || conflict;
    }
}
