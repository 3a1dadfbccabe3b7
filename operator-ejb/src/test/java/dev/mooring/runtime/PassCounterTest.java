package dev.mooring.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.engine.pass.Outcome;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which counters a pass's outcome adds to: a timeout is an error an alert on errors sees. */
class PassCounterTest {

    @Test
    void aTimedOutPassCountsAsAnErrorAsATimeoutAndAsARetry() {
        assertEquals(Set.of(PassCounter.ERRORS, PassCounter.TIMEOUTS), PassCounter.of(Outcome.Kind.CANCELLED));
    }

    @Test
    void aFailedPassIsAnErrorRetriedATerminalOneNeitherAndASuccessNothing() {
        assertEquals(Set.of(PassCounter.ERRORS), PassCounter.of(Outcome.Kind.ERROR));
        assertEquals(Set.of(PassCounter.TERMINAL), PassCounter.of(Outcome.Kind.TERMINAL));
        assertEquals(Set.of(), PassCounter.of(Outcome.Kind.SUCCESS));
    }
}
