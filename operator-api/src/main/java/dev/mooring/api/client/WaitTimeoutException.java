package dev.mooring.api.client;

import java.time.Duration;

/** Thrown when a {@link ResourceClient#waitFor wait} ends before any of its conditions held. */
public final class WaitTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param what the object and the conditions that were awaited */
    public WaitTimeoutException(String what, Duration timeout) {
        super("Timed out after " + timeout.toMillis() + " ms waiting for " + what);
    }
}
