package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.queue.RetryPolicy;
import dev.mooring.engine.queue.RetryPolicy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The one backoff formula, with each of the engine's four sets of numbers. */
class BackoffTest {

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    @Test
    void exponentialDoublesFromTheFirstDelayUpToTheCap() {
        Backoff backoff = Backoff.exponential(ms(500), Duration.ofSeconds(3));
        assertEquals(ms(500), backoff.delay(0));
        assertEquals(ms(1000), backoff.delay(1));
        assertEquals(ms(2000), backoff.delay(2));
        assertEquals(ms(3000), backoff.delay(3));
        assertEquals(ms(3000), backoff.delay(1_000), "no overflow however many failures");
        assertEquals(Duration.ofNanos(Long.MAX_VALUE), Backoff.exponential(ms(500), null).delay(200), "uncapped: saturates");
    }

    @Test
    void jitterMultipliesByAFactorInItsRangeAndNeverPassesTheCap() {
        AtomicReference<Double> random = new AtomicReference<>(0.0);
        Backoff queue = RetryPolicy.backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), 0.1).withRandom(random::get);
        assertEquals(ms(900), queue.delay(0), "the low end");
        random.set(0.5);
        assertEquals(ms(1000), queue.delay(0), "the middle: a factor of 1");
        random.set(0.999_999);
        assertTrue(queue.delay(0).compareTo(ms(1100)) < 0 && queue.delay(0).compareTo(ms(1099)) > 0, "the high end, exclusive");
        assertEquals(Duration.ofSeconds(60), queue.delay(10), "jittered above the cap: the cap");
    }

    @Test
    void eachOfTheEnginesWaitsKeepsItsNumbers() {
        Backoff reconnects = Backoff.exponential(ms(250), Duration.ofSeconds(4)).withJitter(0.5, 1.0).withRandom(() -> 0.0);
        assertEquals(ms(125), reconnects.delay(0), "an informer's first reconnect: half of 250 ms at least");
        assertEquals(ms(2000), reconnects.delay(6), "half of the 4 s cap at least");
        Backoff election = Backoff.constant(Duration.ofSeconds(2)).withJitter(0.9, 1.1).withRandom(() -> 0.5);
        assertEquals(Duration.ofSeconds(2), election.delay(0));
        assertEquals(Duration.ofSeconds(2), election.delay(7), "a constant period does not grow");
    }

    @Test
    void settingsThatCannotMakeADelayAreRefusedWithWhatIsWrong() {
        assertEquals("first must be positive, got PT0S",
                assertThrows(IllegalArgumentException.class, () -> Backoff.exponential(Duration.ZERO, null)).getMessage());
        assertEquals("The cap PT0.1S is shorter than the first delay PT1S",
                assertThrows(IllegalArgumentException.class, () -> Backoff.exponential(Duration.ofSeconds(1), ms(100))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Backoff.constant(ms(1)).withJitter(1.2, 1.1));
        assertThrows(IllegalArgumentException.class, () -> Backoff.constant(ms(1)).delay(-1));
    }

    @Test
    void aPerKeyPolicyCountsEachKeysFailuresApartUntilForgotten() {
        RetryPolicy<String> policy = RetryPolicy.perKey(Backoff.exponential(ms(10), ms(1000)));
        assertEquals(ms(10), policy.when("a"));
        assertEquals(ms(20), policy.when("a"));
        assertEquals(ms(10), policy.when("b"), "another key starts from the first delay");
        assertEquals(2, policy.numRequeues("a"));
        policy.forget("a");
        assertEquals(0, policy.numRequeues("a"));
        assertEquals(ms(10), policy.when("a"));
        assertEquals(1, policy.numRequeues("b"));
    }

    @Test
    void theLimitsOfTheArgumentsAreInclusiveWhereTheyAllowEquality() {
        assertEquals(Duration.ofSeconds(2), Backoff.exponential(Duration.ofSeconds(2), Duration.ofSeconds(2)).delay(5),
                "a cap equal to the first delay");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Backoff.exponential(Duration.ofSeconds(2), Duration.ofMillis(1999)));
        Backoff exact = Backoff.constant(Duration.ofSeconds(1)).withJitter(0.5, 0.5);
        assertEquals(Duration.ofMillis(500), exact.delay(0), "low equal to high: that factor");
        assertEquals(Duration.ofNanos(1), Backoff.constant(Duration.ofSeconds(1)).withJitter(0, 0).delay(0), "never below a nanosecond");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Backoff.constant(Duration.ofSeconds(1)).withJitter(-0.01, 1));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Backoff.constant(Duration.ofSeconds(1)).withJitter(1.01, 1));
    }

    @Test
    void doublingStopsAtTheCapWithoutOverflowEvenForAOneNanosecondStart() {
        Backoff nanos = Backoff.exponential(Duration.ofNanos(1), null);
        assertEquals(Duration.ofNanos(1L << 61), nanos.delay(61), "the last doubling that fits");
        assertEquals(Duration.ofNanos(Long.MAX_VALUE), nanos.delay(62), "past it: the (absent) cap, not an overflow");
        assertEquals(Duration.ofNanos(Long.MAX_VALUE), nanos.delay(1000));
        Backoff seconds = Backoff.exponential(Duration.ofSeconds(1), Duration.ofSeconds(60));
        assertEquals(Duration.ofSeconds(32), seconds.delay(5));
        assertEquals(Duration.ofSeconds(60), seconds.delay(6));
    }

    @Test
    void theDefaultRandomDrawsInsideTheJitterRange() {
        Backoff jittered = Backoff.constant(Duration.ofSeconds(10)).withJitter(0.9, 1.1);
        java.util.Set<Duration> seen = new java.util.HashSet<>();
        for (int i = 0; i < 50; i++) {
            Duration delay = jittered.delay(0);
            org.junit.jupiter.api.Assertions.assertTrue(delay.compareTo(Duration.ofSeconds(9)) >= 0
                    && delay.compareTo(Duration.ofSeconds(11)) < 0, delay.toString());
            seen.add(delay);
        }
        org.junit.jupiter.api.Assertions.assertTrue(seen.size() > 1, "not one fixed factor: " + seen);
    }
}
