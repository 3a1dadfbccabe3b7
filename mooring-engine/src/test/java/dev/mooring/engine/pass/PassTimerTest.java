package dev.mooring.engine.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One pass's timer: its timeout interrupts the worker, and its stop clears that interrupt and no other. */
class PassTimerTest {

    private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);

    PassTimerTest() {
        scheduler.setRemoveOnCancelPolicy(true);
    }

    @AfterEach
    void shutDown() throws InterruptedException {
        Thread.interrupted();
        scheduler.shutdownNow();
        scheduler.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void aTimeoutInterruptsTheWorkerAndTheStopClearsThatInterrupt() {
        PassTimer timer = PassTimer.start(scheduler, Duration.ofMillis(5));
        while (!timer.expired()) {
            Thread.onSpinWait();
        }
        while (!Thread.currentThread().isInterrupted()) {
            Thread.onSpinWait(); // the flag is set right after expired, on the scheduler's thread
        }
        timer.stop();
        assertFalse(Thread.currentThread().isInterrupted(), "the pass's interrupt is not left for the worker");
        assertTrue(timer.nanos() >= Duration.ofMillis(5).toNanos(), "ran at least until the timeout: " + timer.nanos());
    }

    @Test
    void aStopBeforeTheTimeoutCancelsItAndKeepsAnInterruptMeantForTheWorker() {
        PassTimer timer = PassTimer.start(scheduler, Duration.ofHours(1));
        assertEquals(1, scheduler.getQueue().size(), "the timeout is scheduled");
        Thread.currentThread().interrupt(); // for instance, the controller stops
        timer.stop();
        assertTrue(scheduler.getQueue().isEmpty(), "the timeout is cancelled");
        assertFalse(timer.expired());
        assertTrue(Thread.currentThread().isInterrupted(), "an interrupt that is not the timer's stays");
    }

    @Test
    void theStopIsIdempotentAndKeepsTheFirstDuration() throws InterruptedException {
        PassTimer timer = PassTimer.start(null, null);
        assertEquals(-1, timer.nanos(), "no duration before the stop");
        timer.stop();
        long first = timer.nanos();
        assertTrue(first >= 0);
        long end = System.nanoTime() + Duration.ofMillis(2).toNanos();
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        timer.stop();
        assertEquals(first, timer.nanos());
    }
}
