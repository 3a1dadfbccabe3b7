package dev.mooring.engine.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.api.Result;
import dev.mooring.api.TerminalException;
import dev.mooring.api.Wait;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How what a pass returned or threw is classified; what the queue does with it is ControllerRunnerTest's. */
class OutcomeTest {

    @Test
    void aReturnedPassIsASuccessWithTheDelayItAskedFor() {
        assertEquals(new Outcome(Outcome.Kind.SUCCESS, Optional.empty(), null), Outcome.returned(Result.done()));
        assertEquals(new Outcome(Outcome.Kind.SUCCESS, Optional.empty(), null), Outcome.returned(null), "null counts as done");
        assertEquals(Optional.of(Duration.ofSeconds(7)), Outcome.returned(Result.requeueAfter(Duration.ofSeconds(7))).requeueAfter());
    }

    @Test
    void waitIsASuccessWithItsDelay() {
        Outcome outcome = Outcome.thrown(new Wait("NotYet", "dependency missing", Duration.ofSeconds(3)), false);
        assertEquals(new Outcome(Outcome.Kind.SUCCESS, Optional.of(Duration.ofSeconds(3)), null), outcome);
        assertEquals(Duration.ofSeconds(30), new Wait("NotYet", "").after(), "the default delay is 30 s");
    }

    @Test
    void terminalErrorsErrorsAndTimeoutsAreTheirOwnKinds() {
        TerminalException terminal = new TerminalException("bad spec");
        assertEquals(new Outcome(Outcome.Kind.TERMINAL, Optional.empty(), terminal), Outcome.thrown(terminal, false));
        IllegalStateException boom = new IllegalStateException("boom");
        assertEquals(new Outcome(Outcome.Kind.ERROR, Optional.empty(), boom), Outcome.thrown(boom, false));
        InterruptedException interrupted = new InterruptedException();
        assertEquals(Outcome.Kind.CANCELLED, Outcome.thrown(interrupted, true).kind(), "thrown after the timeout interrupted it");
        assertEquals(Outcome.Kind.TERMINAL, Outcome.thrown(terminal, true).kind(), "a terminal error stays terminal");
    }
}
