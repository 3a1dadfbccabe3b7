package dev.mooring.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A clock a test moves by hand, in UTC: give it to {@link MooringExtension#withClock} and the
 * times the controllers' passes write (a condition's {@code lastTransitionTime}) come from it.
 * Safe to move from the test's thread while passes read it. Only moving it changes it.
 */
public final class TestClock extends Clock {

    private volatile Instant now;

    /** A clock standing at {@code start}. */
    public TestClock(Instant start) {
        this.now = Objects.requireNonNull(start, "start");
    }

    /**
     * Moves the clock forward.
     *
     * @throws IllegalArgumentException if {@code step} is negative: time does not go back
     */
    public synchronized void advance(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("A test clock moves forward only, not by " + step);
        }
        now = now.plus(step);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /** @throws UnsupportedOperationException for another zone than UTC: a moved copy would not follow this clock */
    @Override
    public Clock withZone(ZoneId zone) {
        if (ZoneOffset.UTC.equals(zone)) {
            return this;
        }
        throw new UnsupportedOperationException("A TestClock is in UTC");
    }
}
