package dev.mooring.engine.pass;

import dev.mooring.api.Result;
import dev.mooring.api.TerminalException;
import dev.mooring.api.Wait;
import java.time.Duration;
import java.util.Optional;

/**
 * How a reconcile pass ended; the runner turns it into one queue action, one count and one log
 * line: success forgets the key's failures and adds it after the requested delay, terminal
 * forgets it without retry, error and cancelled retry it with backoff.
 *
 * @param kind the counted outcome
 * @param requeueAfter for a success, the delay of the next pass asked for, if any
 * @param cause for a failure, what was thrown
 */
public record Outcome(Kind kind, Optional<Duration> requeueAfter, Throwable cause) {

    /** The counted outcomes (also the metric labels). */
    public enum Kind {
        SUCCESS, ERROR, TERMINAL, CANCELLED
    }

    /** The pass returned ({@code null} counts as {@link Result#done()}). */
    public static Outcome returned(Result result) {
        return new Outcome(Kind.SUCCESS, result == null ? Optional.empty() : result.requeueAfter(), null);
    }

    /** The pass threw {@code thrown}; {@code timedOut} when the reconcile timeout interrupted it. */
    public static Outcome thrown(Throwable thrown, boolean timedOut) {
        if (thrown instanceof Wait wait) {
            return new Outcome(Kind.SUCCESS, Optional.of(wait.after()), null);
        }
        if (thrown instanceof TerminalException) {
            return new Outcome(Kind.TERMINAL, Optional.empty(), thrown);
        }
        return new Outcome(timedOut ? Kind.CANCELLED : Kind.ERROR, Optional.empty(), thrown);
    }
}
