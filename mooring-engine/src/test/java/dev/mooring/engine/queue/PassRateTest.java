package dev.mooring.engine.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The queue's token bucket, on the fake clock: a full bucket's burst, then one key per token, retries and fresh keys alike. */
class PassRateTest {

    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final WorkQueue<String> queue = new WorkQueue<>(RetryPolicy.defaults(), now::get);

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    private void addAll(String... keys) {
        for (String key : keys) {
            queue.add(key);
        }
    }

    @Test
    void aFullBucketLetsTheBurstOutThenOneKeyPerToken() {
        queue.limitRate(2, 3);
        addAll("a", "b", "c", "d", "e");
        assertEquals(Optional.of("a"), queue.poll());
        assertEquals(Optional.of("b"), queue.poll());
        assertEquals(Optional.of("c"), queue.poll());
        assertEquals(Optional.empty(), queue.poll(), "the burst of 3 is spent");
        advance(Duration.ofMillis(499));
        assertEquals(Optional.empty(), queue.poll(), "a token every 500 ms");
        advance(Duration.ofMillis(1));
        assertEquals(Optional.of("d"), queue.poll());
        assertEquals(Optional.empty(), queue.poll());
        advance(Duration.ofSeconds(10));
        assertEquals(Optional.of("e"), queue.poll());
        addAll("f", "g", "h", "i");
        assertEquals(Optional.of("f"), queue.poll());
        assertEquals(Optional.of("g"), queue.poll());
        assertEquals(Optional.empty(), queue.poll(), "a quiet spell refills the bucket to its burst, no more");
    }

    @Test
    void anEmptyQueueTakesNoTokenAndADueRetryWaitsForOneToo() throws Exception {
        queue.limitRate(1, 1);
        assertEquals(Optional.empty(), queue.poll());
        queue.add("a");
        assertEquals(Optional.of("a"), queue.poll(), "the polls of an empty queue spent nothing");
        queue.retry("a"); // due within 1.1 s
        queue.done("a");
        queue.add("b");
        assertEquals(Optional.empty(), queue.poll(), "no token yet");
        advance(Duration.ofSeconds(2));
        assertTrue(queue.poll().isPresent(), "one token in 2 s with a burst of 1");
        assertEquals(Optional.empty(), queue.poll(), "the due retry or b waits for the next token");
        advance(Duration.ofSeconds(1));
        assertTrue(queue.poll().isPresent());
    }

    @Test
    void aBlockingGetWaitsForTheNextTokenOnTheQueuesClock() throws Exception {
        WorkQueue<String> timed = new WorkQueue<>(RetryPolicy.defaults(), System::nanoTime);
        timed.limitRate(1000, 1);
        timed.add("a");
        timed.add("b");
        assertEquals(Optional.of("a"), timed.get());
        assertEquals(Optional.of("b"), timed.get(), "handed out once its token came (1 ms)");
        timed.shutdown();
        assertEquals(Optional.empty(), timed.get());
    }

    @Test
    void theWaitForTheNextTokenIsWhatIsMissingOfIt() {
        PassRate rate = new PassRate(4, 2, 1_000);
        assertEquals(0, rate.nanosUntilToken(1_000));
        rate.take();
        assertEquals(0, rate.nanosUntilToken(1_000), "a burst of 2");
        rate.take();
        assertEquals(250_000_000, rate.nanosUntilToken(1_000), "a token every 250 ms");
        assertEquals(150_000_000, rate.nanosUntilToken(100_001_000));
        assertEquals(250_000_000 - 100_000_000, rate.nanosUntilToken(50_001_000), "a clock that went back adds nothing");
        assertEquals(0, rate.nanosUntilToken(250_001_000), "exactly one token: there");
        rate.take();
        assertEquals(250_000_000, rate.nanosUntilToken(250_001_000));
    }

    @Test
    void aRateNeedsAPositiveRateAndABurst() {
        assertThrows(IllegalArgumentException.class, () -> queue.limitRate(0, 1));
        assertThrows(IllegalArgumentException.class, () -> queue.limitRate(Double.POSITIVE_INFINITY, 1));
        assertThrows(IllegalArgumentException.class, () -> queue.limitRate(Double.NaN, 1));
        assertThrows(IllegalArgumentException.class, () -> queue.limitRate(1, 0));
        assertEquals("2.5/s, burst 4", new PassRate(2.5, 4, 0).toString());
    }
}
