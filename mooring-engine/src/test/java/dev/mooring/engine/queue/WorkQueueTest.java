package dev.mooring.engine.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    /** Jitter factor input 0.5 means no jitter: factor = 1 - j + 2j * 0.5 = 1. */
    private final WorkQueue<String> queue = queueWithRandom(0.5);

    /** A queue of 1 s doubling to 60 s, &plusmn;10 %, on the fake clock, whose jitter draws {@code random}. */
    private WorkQueue<String> queueWithRandom(double random) {
        return new WorkQueue<>(RetryPolicy.perKey(RetryPolicy.backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), 0.1)
                .withRandom(() -> random)), now::get);
    }

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    private String take() {
        return queue.poll().orElseThrow(() -> new AssertionError("expected a ready key"));
    }

    @Test
    void repeatedAddsCoalesceIntoOnePass() {
        queue.add("a");
        queue.add("a");
        queue.add("b");
        queue.add("a");
        assertEquals(2, queue.depth());
        assertEquals("a", take());
        assertEquals("b", take());
        assertEquals(Optional.empty(), queue.poll());
    }

    @Test
    void theObserverHearsEachAddWaitAndWorkAndTheQueueTimesWorkInProgress() {
        List<String> heard = new ArrayList<>();
        WorkQueue<String> observed = new WorkQueue<>(RetryPolicy.defaults(), now::get, new QueueObserver() {
            @Override
            public void added() {
                heard.add("added");
            }

            @Override
            public void waited(Duration queued) {
                heard.add("waited " + queued.toMillis());
            }

            @Override
            public void worked(Duration processing) {
                heard.add("worked " + processing.toMillis());
            }
        });
        observed.add("a");
        observed.add("a"); // collapses: not an add
        advance(Duration.ofMillis(30));
        observed.add("b");
        advance(Duration.ofMillis(20));
        String a = observed.poll().orElseThrow();
        advance(Duration.ofMillis(5));
        String b = observed.poll().orElseThrow();
        advance(Duration.ofMillis(100));
        assertEquals(Duration.ofMillis(205), observed.unfinishedWork(), "105 ms of a, 100 ms of b");
        assertEquals(Duration.ofMillis(105), observed.longestRunning());
        observed.add(a); // while a worker holds it: it waits from now, through the rest of the pass
        observed.done(a);
        advance(Duration.ofMillis(10));
        observed.done(b);
        assertEquals(Duration.ofMillis(0), observed.longestRunning());
        observed.poll().orElseThrow();
        assertEquals(List.of("added", "added", "waited 50", "waited 25", "added", "worked 105", "worked 110", "waited 10"), heard);
        assertEquals(Duration.ZERO, observed.unfinishedWork());
    }

    @Test
    void keysComeOutInTheOrderTheyBecameReady() {
        for (String key : List.of("c", "a", "b")) {
            queue.add(key);
        }
        assertEquals(List.of("c", "a", "b"), List.of(take(), take(), take()));
    }

    @Test
    void aKeyHeldByAWorkerIsNotHandedOutAgainUntilDone() {
        queue.add("a");
        assertEquals("a", take());
        queue.add("a");
        queue.add("a");
        assertEquals(Optional.empty(), queue.poll(), "a second worker must not get a key in processing");
        assertEquals(0, queue.depth());
        queue.done("a");
        assertEquals("a", take(), "an add during processing gives exactly one more pass");
        queue.done("a");
        assertEquals(Optional.empty(), queue.poll());
    }

    @Test
    void doneForAKeyNotProcessingIsAnError() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> queue.done("x"));
        assertTrue(e.getMessage().contains("not processing"));
    }

    @Test
    void delayedKeyBecomesReadyAtItsDeadline() {
        queue.addAfter("a", Duration.ofSeconds(5));
        assertEquals(1, queue.delayed());
        advance(Duration.ofSeconds(4));
        assertEquals(Optional.empty(), queue.poll());
        advance(Duration.ofSeconds(1));
        assertEquals("a", take());
        assertEquals(0, queue.delayed());
    }

    @Test
    void earliestPendingDeadlineWins() {
        queue.addAfter("a", Duration.ofSeconds(10));
        queue.addAfter("a", Duration.ofSeconds(3));
        queue.addAfter("a", Duration.ofSeconds(8));
        assertEquals(1, queue.delayed());
        advance(Duration.ofSeconds(3));
        assertEquals("a", take());
        queue.done("a");
        advance(Duration.ofSeconds(10));
        assertEquals(Optional.empty(), queue.poll(), "the superseded later deadlines must not fire");
    }

    @Test
    void aFreshAddSupersedesAPendingDelay() {
        queue.addAfter("a", Duration.ofSeconds(30));
        queue.add("a");
        assertEquals(0, queue.delayed());
        assertEquals("a", take());
        queue.done("a");
        advance(Duration.ofSeconds(31));
        assertEquals(Optional.empty(), queue.poll());
    }

    @Test
    void addAfterIsIgnoredWhileTheKeyIsAlreadyReady() {
        queue.add("a");
        queue.addAfter("a", Duration.ofSeconds(1));
        assertEquals(0, queue.delayed());
        assertEquals(1, queue.depth());
    }

    @Test
    void zeroDelayIsAnAddAndNegativeDelayIsRejected() {
        queue.addAfter("a", Duration.ZERO);
        assertEquals(1, queue.depth());
        assertThrows(IllegalArgumentException.class, () -> queue.addAfter("a", Duration.ofSeconds(-1)));
    }

    @Test
    void retryBacksOffExponentiallyToTheCapAndForgetResets() {
        List<Long> seconds = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            seconds.add(queue.retry("a").toSeconds());
        }
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 32L, 60L, 60L, 60L), seconds);
        assertEquals(9, queue.numRetries("a"));
        queue.forget("a");
        assertEquals(0, queue.numRetries("a"));
        assertEquals(Duration.ofSeconds(1), queue.retry("a"));
    }

    @Test
    void retryJitterStaysWithinTenPercentAndNeverAboveTheCap() {
        WorkQueue<String> low = queueWithRandom(0.0);
        WorkQueue<String> high = queueWithRandom(0.999_999);
        assertEquals(900, low.retry("a").toMillis());
        assertEquals(1100, Math.round(high.retry("a").toNanos() / 1e6));
        for (int i = 0; i < 10; i++) {
            high.retry("a");
        }
        assertEquals(Duration.ofSeconds(60), high.retry("a"));
    }

    @Test
    void aRetryIsSupersededByAnEventDuringProcessing() {
        queue.add("a");
        assertEquals("a", take());
        queue.add("a"); // an event while the failing pass runs
        queue.retry("a");
        queue.done("a");
        assertEquals(0, queue.delayed(), "the event's pass comes right away; no delayed retry on top");
        assertEquals("a", take());
    }

    @Test
    void invalidRetrySettingsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> RetryPolicy.<String>exponential(Duration.ZERO, Duration.ofSeconds(1), 0.1));
        assertThrows(IllegalArgumentException.class,
                () -> RetryPolicy.<String>exponential(Duration.ofSeconds(2), Duration.ofSeconds(1), 0.1));
        assertThrows(IllegalArgumentException.class,
                () -> RetryPolicy.<String>exponential(Duration.ofSeconds(1), Duration.ofSeconds(2), 1.5));
        assertThrows(IllegalArgumentException.class,
                () -> RetryPolicy.<String>exponential(Duration.ofSeconds(-1), Duration.ofSeconds(2), 0.1));
        assertThrows(IllegalArgumentException.class,
                () -> RetryPolicy.<String>exponential(Duration.ofSeconds(1), Duration.ofSeconds(2), -0.1));
        // the bounds themselves are settings: a constant delay, no jitter, the widest jitter
        RetryPolicy.<String>exponential(Duration.ofSeconds(1), Duration.ofSeconds(1), 0);
        RetryPolicy.<String>exponential(Duration.ofNanos(1), Duration.ofSeconds(1), 1);
    }

    @Test
    void shutdownDrainsReadyWorkDiscardsDelayedWorkAndRefusesNewWork() throws InterruptedException {
        queue.add("a");
        queue.add("b");
        queue.addAfter("c", Duration.ofSeconds(1));
        queue.retry("d");
        queue.shutdown();
        queue.add("e");
        queue.addAfter("f", Duration.ofSeconds(1));
        assertEquals(Duration.ZERO, queue.retry("g"));
        assertEquals(0, queue.delayed());
        assertEquals(Optional.of("a"), queue.get());
        assertEquals(Optional.of("b"), queue.get());
        assertEquals(Optional.empty(), queue.get(), "get returns empty once shut down and drained");
    }

    @Test
    void gracefulShutdownStillReprocessesAKeyAddedBeforeShutdown() throws InterruptedException {
        queue.add("a");
        assertEquals("a", take());
        queue.add("a");
        queue.shutdown();
        queue.done("a");
        assertEquals(Optional.of("a"), queue.get());
    }

    @Test
    void immediateShutdownDiscardsReadyWorkAndReAdds() throws InterruptedException {
        queue.add("a");
        queue.add("b");
        assertEquals("a", take());
        queue.add("a");
        queue.shutdown(true);
        queue.done("a");
        assertEquals(Optional.empty(), queue.get());
        assertEquals(0, queue.depth());
    }

    @Test
    void awaitIdleWaitsForInFlightWork() throws Exception {
        WorkQueue<String> real = new WorkQueue<>();
        assertTrue(real.awaitIdle(Duration.ZERO));
        real.add("a");
        assertFalse(real.awaitIdle(Duration.ofMillis(20)));
        String key = real.get().orElseThrow();
        Thread worker = new Thread(() -> {
            sleep(50);
            real.done(key);
        });
        worker.start();
        assertTrue(real.awaitIdle(Duration.ofSeconds(5)));
        worker.join();
    }

    @Test
    void blockedGetWakesForADelayedKeyWithTheRealClock() throws Exception {
        WorkQueue<String> real = new WorkQueue<>();
        real.addAfter("a", Duration.ofMillis(50));
        long start = System.nanoTime();
        assertEquals(Optional.of("a"), real.get());
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(45));
    }

    @Test
    void blockedGetReturnsEmptyOnShutdown() throws Exception {
        WorkQueue<String> real = new WorkQueue<>();
        CountDownLatch waiting = new CountDownLatch(1);
        List<Optional<String>> got = new ArrayList<>();
        Thread worker = new Thread(() -> {
            try {
                waiting.countDown();
                got.add(real.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        worker.start();
        waiting.await();
        sleep(20);
        real.shutdown();
        worker.join(5000);
        assertEquals(List.of(Optional.<String>empty()), got);
    }

    /** Many workers, a burst of adds on few keys: never two concurrent passes of one key. */
    @Test
    void neverTwoConcurrentPassesOfOneKeyUnderContention() throws Exception {
        WorkQueue<String> real = new WorkQueue<>();
        Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger passes = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            Thread worker = new Thread(() -> {
                try {
                    for (Optional<String> next = real.get(); next.isPresent(); next = real.get()) {
                        String key = next.get();
                        try {
                            if (inFlight.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet() > 1) {
                                overlaps.incrementAndGet();
                            }
                            passes.incrementAndGet();
                            Thread.onSpinWait();
                            inFlight.get(key).decrementAndGet();
                        } finally {
                            real.done(key);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            workers.add(worker);
            worker.start();
        }
        for (int i = 0; i < 20_000; i++) {
            real.add("key-" + (i % 3));
        }
        assertTrue(real.awaitIdle(Duration.ofSeconds(30)));
        real.shutdown();
        for (Thread worker : workers) {
            worker.join(5000);
        }
        assertEquals(0, overlaps.get(), "a key was processed by two workers at once");
        assertTrue(passes.get() >= 3 && passes.get() <= 20_000, "passes: " + passes.get());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
