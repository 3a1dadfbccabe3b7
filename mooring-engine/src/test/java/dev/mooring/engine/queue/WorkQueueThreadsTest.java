package dev.mooring.engine.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The queue between threads: a waiting worker is woken by the work that concerns it, and no
 * operation keeps the queue locked. Each wait is bounded generously (10 s) and fails only when
 * the wake-up never comes; the ticker is the test's and never moves by itself.
 */
class WorkQueueThreadsTest {

    private static final long WAIT_SECONDS = 10;

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final WorkQueue<String> queue = new WorkQueue<>(RetryPolicy.perKey(RetryPolicy.backoff(Duration.ofSeconds(1),
            Duration.ofSeconds(60), 0.1).withRandom(() -> 0.5)), now::get);
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        queue.shutdown(true);
        threads.shutdownNow();
    }

    /** A worker taking the next key on a thread of its own; {@link #awaitParked} waits until it waits in {@code get()}. */
    private final class Worker {
        final java.util.concurrent.CompletableFuture<Optional<String>> taken = new java.util.concurrent.CompletableFuture<>();
        final Thread thread = new Thread(() -> {
            try {
                taken.complete(queue.get());
            } catch (Throwable e) {
                taken.completeExceptionally(e);
            }
        });

        Worker start() {
            thread.setDaemon(true);
            thread.start();
            return this;
        }

        void awaitParked() throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
                assertTrue(System.nanoTime() < end && !taken.isDone(), "the worker never waited");
                Thread.sleep(1);
            }
        }

        Optional<String> taken() throws Exception {
            return taken.get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void aWaitingWorkerIsWokenByAnAdd() throws Exception {
        Worker worker = new Worker().start();
        worker.awaitParked();
        queue.add("a");
        assertEquals(Optional.of("a"), worker.taken());
        assertEquals(1, queue.processing());
    }

    @Test
    void aKeyAddedWhileItsPassRanGoesToAWaitingWorkerWhenThePassIsDone() throws Exception {
        queue.add("a");
        assertEquals(Optional.of("a"), queue.poll());
        queue.add("a"); // during its pass: dirty, not ready
        Worker worker = new Worker().start();
        worker.awaitParked();
        queue.done("a");
        assertEquals(Optional.of("a"), worker.taken());
    }

    @Test
    void aShutdownWakesEveryWaitingWorkerEmptyHanded() throws Exception {
        List<Worker> workers = List.of(new Worker().start(), new Worker().start());
        for (Worker worker : workers) {
            worker.awaitParked();
        }
        queue.shutdown();
        for (Worker worker : workers) {
            assertEquals(Optional.empty(), worker.taken());
        }
    }

    @Test
    void noOperationLeavesTheQueueLockedForAnotherThread() throws Exception {
        queue.addAfter("later", Duration.ofSeconds(5));
        queue.add("a");
        queue.poll();
        queue.retry("b");
        queue.forget("b");
        queue.done("a");
        Future<Integer> other = threads.submit(queue::depth);
        assertEquals(0, other.get(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void dueDelayedKeysCountAsReadyNotDelayed() {
        queue.addAfter("later", Duration.ofSeconds(5));
        assertEquals(1, queue.delayed());
        now.addAndGet(Duration.ofSeconds(5).toNanos());
        assertEquals(0, queue.delayed(), "its time has come: ready");
        assertEquals(1, queue.depth());
    }
}
