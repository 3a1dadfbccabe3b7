package dev.mooring.api;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of a successful reconcile pass.
 *
 * <p>{@link #done()} means the object converged: the key's failure history is reset and it is
 * reconciled again only when something it watches changes (or at the periodic resync).
 * {@link #requeueAfter(Duration)} also resets the failure history and schedules one more pass
 * after the delay, without backoff; an event for the key before then supersedes the delay.
 * There is no other way to say "come back later": a failure is an exception (see
 * {@link Reconciler}).
 */
public final class Result {

    private static final Result DONE = new Result(null);

    private final Duration requeueAfter;

    private Result(Duration requeueAfter) {
        this.requeueAfter = requeueAfter;
    }

    /** The pass converged; nothing is scheduled. */
    public static Result done() {
        return DONE;
    }

    /**
     * Reconcile the same key again after {@code delay}.
     *
     * @throws IllegalArgumentException if {@code delay} is negative
     * @throws NullPointerException if {@code delay} is null
     */
    public static Result requeueAfter(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("requeueAfter must not be negative: " + delay);
        }
        return new Result(delay);
    }

    /** The delay before the next pass, if one was asked for. */
    public Optional<Duration> requeueAfter() {
        return Optional.ofNullable(requeueAfter);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Result that && Objects.equals(requeueAfter, that.requeueAfter);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(requeueAfter);
    }

    @Override
    public String toString() {
        return requeueAfter == null ? "Result.done()" : "Result.requeueAfter(" + requeueAfter + ")";
    }
}
