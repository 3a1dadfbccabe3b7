package dev.mooring.engine.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.api.TerminalException;
import org.junit.jupiter.api.Test;

/** What a status shows of a failure: class and first line, bounded, never a stack trace. */
class FailureSummaryTest {

    @Test
    void theClassAndTheMessage() {
        assertEquals("IllegalStateException: the database refused", FailureSummary.of(new IllegalStateException("the database refused")));
        assertEquals("TerminalException: no", FailureSummary.of(new TerminalException("no")));
        assertEquals("NullPointerException", FailureSummary.of(new NullPointerException()), "no message: the class alone");
        assertEquals("IllegalStateException", FailureSummary.of(new IllegalStateException("  ")));
        assertEquals("IllegalStateException: padded", FailureSummary.of(new IllegalStateException("  padded \n")));
    }

    @Test
    void aLongOrMultiLineMessageIsCutAndSaysSo() {
        String trace = "wrapped: boom\n\tat dev.mooring.Example.run(Example.java:12)\n\tat java.base/java.lang.Thread.run(Thread.java:840)";
        assertEquals("RuntimeException: wrapped: boom …", FailureSummary.of(new RuntimeException(trace)), "the first line, no trace");
        String summary = FailureSummary.of(new IllegalStateException("x".repeat(1000)));
        assertEquals("IllegalStateException: " + "x".repeat(FailureSummary.MAX_MESSAGE) + " …", summary);
        assertEquals("IllegalStateException: belltab", FailureSummary.of(new IllegalStateException("bell\u0007tab")),
                "control characters dropped");
        assertEquals("IllegalStateException: " + "y".repeat(FailureSummary.MAX_MESSAGE),
                FailureSummary.of(new IllegalStateException("y".repeat(FailureSummary.MAX_MESSAGE))), "exactly the bound: not cut");
    }

    @Test
    void anAnonymousClassIsNamedByItsFullName() {
        RuntimeException anonymous = new RuntimeException("odd") {
        };
        assertEquals(anonymous.getClass().getName() + ": odd", FailureSummary.of(anonymous));
    }
}
