package dev.mooring.engine.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The loop both Lease holders share: rounds, stop, contact and the reporting of failures, on a fake clock. */
class LeaseLoopTest {

    private static final ElectionSettings SETTINGS = new ElectionSettings("work", "ops", "a", Duration.ofSeconds(15),
            Duration.ofSeconds(10), Duration.ofSeconds(2));

    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    @org.junit.jupiter.api.extension.RegisterExtension
    private final LogCapture log = new LogCapture(LeaseLoopTest.class);
    private final LeaseLoop loop = new LeaseLoop(SETTINGS, now::get, Logger.getLogger(LeaseLoopTest.class.getName()));


    @Test
    void aRoundIsTheRetryPeriodWithinTenPercent() {
        for (int i = 0; i < 100; i++) {
            long millis = loop.nextRound().toMillis();
            assertTrue(millis >= 1800 && millis <= 2200, millis + " ms");
        }
    }

    @Test
    void aStopRequestEndsThePauseAndEveryLaterOne() throws Exception {
        assertFalse(loop.stopping());
        assertFalse(loop.pause(Duration.ofMillis(1)), "no stop requested: the pause runs out");
        loop.requestStop();
        assertTrue(loop.stopping());
        assertTrue(loop.pause(Duration.ofHours(1)), "returns at once");
        assertTrue(loop.pause(Duration.ofNanos(-1)), "a negative pause is none");
    }

    @Test
    void contactLastsALeaseDurationFromTheLastAnswer() {
        assertFalse(loop.connected(), "never answered");
        loop.answered(failed -> "again");
        now.addAndGet(Duration.ofSeconds(15).toNanos() - 1);
        assertTrue(loop.connected());
        now.incrementAndGet();
        assertFalse(loop.connected(), "a lease duration without an answer");
    }

    @Test
    void aRunOfFailuresIsOneWarningAndItsEndOneRecordCountingThem() {
        loop.failed(() -> "first");
        loop.failed(() -> "second");
        loop.failed(() -> "third");
        loop.answered(failed -> "answered after " + LeaseLoop.failures(failed));
        loop.answered(failed -> "said twice");
        loop.failed(() -> "a new run");
        loop.answered(failed -> "answered after " + LeaseLoop.failures(failed));
        assertEquals(List.of("WARNING first", "FINE second", "FINE third", "INFO answered after 3 failures", "WARNING a new run",
                "INFO answered after 1 failure"), log.lines());
    }
}
