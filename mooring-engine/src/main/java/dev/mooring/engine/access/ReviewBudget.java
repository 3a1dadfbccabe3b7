package dev.mooring.engine.access;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.Semaphore;

/**
 * How many reviews of unknown callers the API server is asked for: a token bucket of
 * {@code perSecond} reviews a second with bursts of up to {@code burst}, and at most
 * {@code concurrent} reviews in flight. A caller beyond either is refused at once (429), so that
 * a flood of ever new tokens costs the API server and the operator a bounded amount of work.
 *
 * <p>Written here rather than taken from a rate-limiting library: it is a dozen lines on the
 * clock the access check already takes, which the tests move.
 *
 * <p>Thread-safe.
 */
public final class ReviewBudget {

    /**
     * The limits.
     *
     * @param perSecond reviews a second in the long run, at least 1
     * @param burst reviews at once after a quiet time, at least 1
     * @param concurrent reviews in flight at once, at least 1
     */
    public record Limits(int perSecond, int burst, int concurrent) {

        /** 5 reviews a second, bursts of 10, 2 in flight: a scraper needs one review a minute. */
        public static final Limits DEFAULT = new Limits(5, 10, 2);

        /** @throws IllegalArgumentException if a limit is below 1 */
        public Limits {
            if (perSecond < 1 || burst < 1 || concurrent < 1) {
                throw new IllegalArgumentException("review limits must each be at least 1: " + perSecond + "/s, burst " + burst
                        + ", " + concurrent + " at once");
            }
        }
    }

    private final Limits limits;
    private final Clock clock;
    private final Semaphore inFlight;
    private double tokens;
    private long refilledAt;

    /** Full: {@code burst} reviews may start at once. */
    public ReviewBudget(Limits limits, Clock clock) {
        this.limits = Objects.requireNonNull(limits);
        this.clock = Objects.requireNonNull(clock);
        this.inFlight = new Semaphore(limits.concurrent());
        this.tokens = limits.burst();
        this.refilledAt = clock.millis();
    }

    /** The limits. */
    public Limits limits() {
        return limits;
    }

    /**
     * The right to one review now, or null when the rate or the reviews in flight are at their
     * limit. Close the permit when the review ends.
     */
    public Permit tryStart() {
        if (!inFlight.tryAcquire()) {
            return null;
        }
        if (!takeToken()) {
            inFlight.release();
            return null;
        }
        return new Permit();
    }

    private synchronized boolean takeToken() {
        long now = clock.millis();
        tokens = Math.min(limits.burst(), tokens + Math.max(0, now - refilledAt) * limits.perSecond() / 1000.0);
        refilledAt = now;
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }

    /** One review in flight. */
    public final class Permit implements AutoCloseable {
        private boolean closed;

        private Permit() {
        }

        /** Ends the review; closing twice ends it once. */
        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                inFlight.release();
            }
        }
    }
}
