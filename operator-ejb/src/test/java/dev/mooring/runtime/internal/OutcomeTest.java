package dev.mooring.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.api.Result;
import dev.mooring.api.TerminalException;
import dev.mooring.api.Wait;
import dev.mooring.api.queue.WorkQueue;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OutcomeTest {

    private final AtomicLong now = new AtomicLong();
    private final WorkQueue<String> queue = new WorkQueue<>(Duration.ofSeconds(1), Duration.ofSeconds(60), 0, now::get, () -> 0.5);

    @BeforeEach
    void twoEarlierFailures() {
        queue.retry("k");
        queue.retry("k");
        now.addAndGet(Duration.ofMinutes(5).toNanos());
        queue.poll().ifPresent(queue::done);
        assertEquals(2, queue.numRetries("k"));
    }

    @Test
    void successForgetsFailuresAndSchedulesNothing() {
        Outcome outcome = Outcome.returned(Result.done());
        assertEquals(Outcome.Kind.SUCCESS, outcome.kind());
        assertEquals(Optional.empty(), outcome.applyTo(queue, "k"));
        assertEquals(0, queue.numRetries("k"));
        assertEquals(0, queue.delayed());
        assertEquals(Outcome.Kind.SUCCESS, Outcome.returned(null).kind());
    }

    @Test
    void requeueAfterIsAPlainDelayWithoutBackoff() {
        Outcome.returned(Result.requeueAfter(Duration.ofSeconds(7))).applyTo(queue, "k");
        assertEquals(0, queue.numRetries("k"));
        assertEquals(1, queue.delayed());
        now.addAndGet(Duration.ofSeconds(7).toNanos());
        assertEquals(Optional.of("k"), queue.poll());
    }

    @Test
    void waitIsASuccessWithItsDelay() {
        Outcome outcome = Outcome.thrown(new Wait("NotYet", "dependency missing", Duration.ofSeconds(3)), false);
        assertEquals(Outcome.Kind.SUCCESS, outcome.kind());
        outcome.applyTo(queue, "k");
        assertEquals(0, queue.numRetries("k"));
        now.addAndGet(Duration.ofSeconds(3).toNanos());
        assertEquals(Optional.of("k"), queue.poll());
        assertEquals(Duration.ofSeconds(30), new Wait("NotYet", "").after(), "the default delay is 30 s");
    }

    @Test
    void terminalForgetsAndDoesNotRetry() {
        Outcome outcome = Outcome.thrown(new TerminalException("bad spec"), false);
        assertEquals(Outcome.Kind.TERMINAL, outcome.kind());
        assertEquals(Optional.empty(), outcome.applyTo(queue, "k"));
        assertEquals(0, queue.numRetries("k"));
        assertEquals(0, queue.delayed());
    }

    @Test
    void errorRetriesWithTheNextBackoffStep() {
        Outcome outcome = Outcome.thrown(new IllegalStateException("boom"), false);
        assertEquals(Outcome.Kind.ERROR, outcome.kind());
        assertEquals(Optional.of(Duration.ofSeconds(4)), outcome.applyTo(queue, "k"), "third failure: 1, 2, then 4 s");
        assertEquals(3, queue.numRetries("k"));
    }

    @Test
    void aTimedOutPassIsCancelledAndRetried() {
        Outcome outcome = Outcome.thrown(new InterruptedException(), true);
        assertEquals(Outcome.Kind.CANCELLED, outcome.kind());
        assertEquals(Optional.of(Duration.ofSeconds(4)), outcome.applyTo(queue, "k"));
    }
}
