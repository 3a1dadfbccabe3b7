package dev.mooring.engine.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Fresh changes before the backlog, and a backlog that is never starved. */
class WorkQueuePriorityTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final WorkQueue<String> queue = new WorkQueue<>(RetryPolicy.perKey(
            RetryPolicy.backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), 0.1).withRandom(() -> 0.5)), now::get);

    /** Takes a key and releases it at once. */
    private String pass() {
        String key = queue.poll().orElseThrow(() -> new AssertionError("expected a ready key"));
        queue.done(key);
        return key;
    }

    private void addLow(String... keys) {
        for (String key : keys) {
            queue.add(key, Priority.LOW);
        }
    }

    @Test
    void aFreshChangeOvertakesTheBacklog() {
        addLow("a", "b", "c", "d");
        queue.add("x");
        assertEquals(5, queue.depth());
        assertEquals(List.of("x", "a", "b", "c", "d"), List.of(pass(), pass(), pass(), pass(), pass()));
    }

    @Test
    void whileBothWaitEachFreshKeyIsFollowedByTwoBacklogKeys() {
        addLow("l1", "l2", "l3", "l4", "l5");
        queue.add("n1");
        queue.add("n2");
        queue.add("n3");
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            order.add(pass());
        }
        assertEquals(List.of("n1", "l1", "l2", "n2", "l3", "l4", "n3", "l5"), order);
        assertEquals(Optional.empty(), queue.poll());
    }

    @Test
    void theBacklogDrainsWithinOneAndAHalfTimesItsLengthHoweverFastFreshChangesCome() {
        int backlog = 300;
        for (int i = 0; i < backlog; i++) {
            queue.add("low-" + i, Priority.LOW);
        }
        int passes = 0;
        int lowServed = 0;
        int fresh = 0;
        while (lowServed < backlog) {
            queue.add("fresh-" + fresh++); // a fresh change is always waiting: the workers are saturated
            if (pass().startsWith("low-")) {
                lowServed++;
            }
            passes++;
        }
        assertTrue(passes <= backlog * 3 / 2, "the backlog of " + backlog + " took " + passes + " passes");
        assertTrue(passes - lowServed >= backlog / 2 - 1, "fresh changes got " + (passes - lowServed) + " passes");
    }

    @Test
    void aNormalAddPromotesAWaitingBacklogKeyWhichIsHandedOutOnce() {
        addLow("a", "b", "c");
        queue.add("c");
        assertEquals(3, queue.depth());
        assertEquals(List.of("c", "a", "b"), List.of(pass(), pass(), pass()));
        assertEquals(Optional.empty(), queue.poll());
        assertEquals(0, queue.depth());
    }

    @Test
    void aLowAddNeverDemotesAWaitingFreshKey() {
        addLow("a");
        queue.add("x");
        queue.add("x", Priority.LOW);
        assertEquals(List.of("x", "a"), List.of(pass(), pass()));
    }

    @Test
    void aPromotedKeyAddedLowAgainIsHandedOutOnceFromItsLeftBehindEntry() {
        addLow("k", "m");
        queue.add("k");
        assertEquals("k", pass());
        queue.add("k", Priority.LOW); // k's first low entry, left behind by the promotion, is live again
        assertEquals(2, queue.depth());
        assertEquals(List.of("k", "m"), List.of(pass(), pass()));
        assertEquals(Optional.empty(), queue.poll());
        assertEquals(0, queue.depth());
    }

    @Test
    void aBacklogKeyAddedWhileProcessingComesBackBehindFreshOnes() {
        addLow("a");
        String held = queue.poll().orElseThrow();
        queue.add("a", Priority.LOW);
        queue.add("b");
        queue.done(held);
        assertEquals(List.of("b", "a"), List.of(pass(), pass()));
    }

    @Test
    void delayedKeysComeBackAsFreshChanges() {
        queue.addAfter("later", Duration.ofSeconds(1));
        addLow("a", "b");
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertEquals(List.of("later", "a", "b"), List.of(pass(), pass(), pass()));
    }

    @Test
    void immediateShutdownDiscardsTheBacklogToo() throws InterruptedException {
        addLow("a", "b");
        queue.add("x");
        queue.shutdown(true);
        assertEquals(0, queue.depth());
        assertEquals(Optional.empty(), queue.get());
    }

    @Test
    void aGracefulShutdownDrainsBothPriorities() throws InterruptedException {
        addLow("a");
        queue.add("x");
        queue.shutdown();
        assertEquals(List.of("x", "a"), List.of(pass(), pass()));
        assertEquals(Optional.empty(), queue.get());
    }
}
