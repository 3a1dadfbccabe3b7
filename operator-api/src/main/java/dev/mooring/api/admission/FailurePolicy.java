package dev.mooring.api.admission;

/**
 * What the API server does when it cannot get an answer from the webhook (unreachable, TLS
 * failure, timeout, an HTTP error status).
 */
public enum FailurePolicy {
    /** Reject the request. The default: a policy that may be skipped is not a policy. */
    FAIL("Fail"),
    /** Admit the request as if the webhook had allowed it. */
    IGNORE("Ignore");

    private final String wireName;

    FailurePolicy(String wireName) {
        this.wireName = wireName;
    }

    /** The value of the {@code failurePolicy} field of a webhook configuration. */
    public String wireName() {
        return wireName;
    }
}
