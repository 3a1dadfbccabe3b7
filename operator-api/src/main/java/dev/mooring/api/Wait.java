package dev.mooring.api;

import java.time.Duration;
import java.util.Objects;

/**
 * Expected pending work: throw it from {@link Reconciler#reconcile} to end the pass and look
 * again later, without counting a failure and without backoff (for example, while waiting for a
 * dependency to become ready).
 *
 * <p>The key's failure history is reset and the key is reconciled again after
 * {@link #after()} (30 seconds unless given), or sooner when it changes.
 */
public class Wait extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The delay used when none is given: 30 seconds. */
    public static final Duration DEFAULT_DELAY = Duration.ofSeconds(30);

    private final String reason;
    private final transient Duration after;

    /**
     * Wait {@link #DEFAULT_DELAY}.
     *
     * @param reason a short CamelCase reason, such as {@code DependencyNotReady}
     * @param message what is being waited for
     * @throws IllegalArgumentException if {@code reason} is blank
     */
    public Wait(String reason, String message) {
        this(reason, message, DEFAULT_DELAY);
    }

    /**
     * Wait {@code after}.
     *
     * @throws IllegalArgumentException if {@code reason} is blank or {@code after} is not positive
     */
    public Wait(String reason, String message, Duration after) {
        super(message == null || message.isEmpty() ? reason : message);
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("Wait needs a reason");
        }
        Objects.requireNonNull(after, "after");
        if (after.isZero() || after.isNegative()) {
            throw new IllegalArgumentException("Wait delay must be positive, got " + after);
        }
        this.reason = reason;
        this.after = after;
    }

    /** The reason given. */
    public String reason() {
        return reason;
    }

    /** When to look again. */
    public Duration after() {
        return after;
    }
}
