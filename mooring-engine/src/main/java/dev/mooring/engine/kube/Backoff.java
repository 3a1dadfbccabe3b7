package dev.mooring.engine.kube;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * The engine's one formula for waiting before another attempt: the first delay, doubled for each
 * earlier failed attempt (or kept, for a constant period), times a random factor within the
 * jitter range, never above the cap. Immutable; the random source is injectable so that tests
 * choose the factor.
 *
 * <p>The engine's four waits, each with its own numbers: the work queue's retries (1 s doubling
 * to 60 s, &plusmn;10 %), the informers' reconnects (250 ms doubling to 4 s, half to all of it),
 * discovery during start-up (500 ms doubling, no jitter) and the leader elector's retry period
 * (constant, &plusmn;10 %).
 */
public final class Backoff {

    private final long firstNanos;
    private final long capNanos;
    private final boolean doubling;
    private final double low;
    private final double high;
    private final DoubleSupplier random;

    private Backoff(long firstNanos, long capNanos, boolean doubling, double low, double high, DoubleSupplier random) {
        this.firstNanos = firstNanos;
        this.capNanos = capNanos;
        this.doubling = doubling;
        this.low = low;
        this.high = high;
        this.random = random;
    }

    /**
     * {@code first}, doubled after each failed attempt up to {@code cap}; no jitter.
     *
     * @param cap the longest delay, or null for none
     * @throws IllegalArgumentException unless {@code 0 < first} and {@code first <= cap}
     */
    public static Backoff exponential(Duration first, Duration cap) {
        long firstNanos = positive(first, "first");
        long capNanos = cap == null ? Long.MAX_VALUE : positive(cap, "cap");
        if (capNanos < firstNanos) {
            throw new IllegalArgumentException("The cap " + cap + " is shorter than the first delay " + first);
        }
        return new Backoff(firstNanos, capNanos, true, 1, 1, Backoff::uniform);
    }

    /**
     * The same {@code period} before every attempt; no jitter.
     *
     * @throws IllegalArgumentException unless {@code 0 < period}
     */
    public static Backoff constant(Duration period) {
        return new Backoff(positive(period, "period"), Long.MAX_VALUE, false, 1, 1, Backoff::uniform);
    }

    /**
     * This backoff with each delay multiplied by a factor drawn uniformly from
     * {@code [low, high)} (the result still never above the cap).
     *
     * @throws IllegalArgumentException unless {@code 0 <= low <= high}
     */
    public Backoff withJitter(double low, double high) {
        if (!(low >= 0 && low <= high)) {
            throw new IllegalArgumentException("Require 0 <= low <= high for a jitter range, got [" + low + ", " + high + ")");
        }
        return new Backoff(firstNanos, capNanos, doubling, low, high, random);
    }

    /** This backoff with {@code random} (values in {@code [0, 1)}) choosing the jitter factor. */
    public Backoff withRandom(DoubleSupplier random) {
        return new Backoff(firstNanos, capNanos, doubling, low, high, Objects.requireNonNull(random, "random"));
    }

    /**
     * The delay before the attempt that follows {@code failures} failed ones (0: the first retry).
     * Always at least one nanosecond.
     *
     * @throws IllegalArgumentException if {@code failures} is negative
     */
    public Duration delay(int failures) {
        if (failures < 0) {
            throw new IllegalArgumentException("failures must not be negative: " + failures);
        }
        long undelayed = doubling ? doubled(failures) : Math.min(firstNanos, capNanos);
        double factor = low == high ? low : low + (high - low) * random.getAsDouble();
        long jittered = Math.min(capNanos, Math.max(1, Math.round(undelayed * factor)));
        return Duration.ofNanos(jittered);
    }

    /** The cap, or null for none. */
    public Duration cap() {
        return capNanos == Long.MAX_VALUE ? null : Duration.ofNanos(capNanos);
    }

    private long doubled(int failures) {
        // first * 2^failures without overflow: the cap is reached before the shift can overflow
        if (failures >= Long.numberOfLeadingZeros(firstNanos) - 1) {
            return capNanos;
        }
        return Math.min(capNanos, firstNanos << failures);
    }

    private static long positive(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + duration);
        }
        return duration.toNanos();
    }

    private static double uniform() {
        return ThreadLocalRandom.current().nextDouble();
    }

    @Override
    public String toString() {
        return (doubling ? "exponential " : "constant ") + Duration.ofNanos(firstNanos) + (capNanos == Long.MAX_VALUE ? ""
                : " up to " + Duration.ofNanos(capNanos)) + (low == 1 && high == 1 ? "" : " x[" + low + ", " + high + ")");
    }
}
