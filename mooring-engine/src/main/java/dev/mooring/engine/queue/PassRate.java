package dev.mooring.engine.queue;

/**
 * A token bucket limiting how often the queue hands out keys: at most {@code perSecond} on
 * average, and {@code burst} at once after a quiet spell (client-go's {@code BucketRateLimiter},
 * over {@code golang.org/x/time/rate}, in the queue's own clock). The bucket starts full. Not
 * thread-safe: the queue calls it under its lock.
 */
public final class PassRate {

    private static final double NANOS_PER_SECOND = 1e9;

    private final double perSecond;
    private final int burst;
    private double tokens;
    private long last;

    /**
     * @param now the queue's clock now (nanoseconds)
     * @throws IllegalArgumentException unless {@code perSecond} is positive and finite and {@code burst} at least 1
     */
    public PassRate(double perSecond, int burst, long now) {
        if (!(perSecond > 0) || Double.isInfinite(perSecond) || burst < 1) {
            throw new IllegalArgumentException("A pass rate needs a positive, finite rate and a burst of at least 1, got " + perSecond
                    + "/s and " + burst);
        }
        this.perSecond = perSecond;
        this.burst = burst;
        this.tokens = burst;
        this.last = now;
    }

    /** Nanoseconds until a token is there ({@code 0}: one is there now). */
    long nanosUntilToken(long now) {
        refill(now);
        return Math.max(0, (long) Math.ceil((1 - tokens) / perSecond * NANOS_PER_SECOND));
    }

    /** Take the token {@link #nanosUntilToken} just said is there (under the same lock). */
    void take() {
        tokens -= 1;
    }

    /** The tokens that came since the last refill; a clock that went back adds none. */
    private void refill(long now) {
        tokens = Math.min(burst, tokens + Math.max(0, now - last) * perSecond / NANOS_PER_SECOND);
        last = Math.max(last, now);
    }

    @Override
    public String toString() {
        return perSecond + "/s, burst " + burst;
    }
}
