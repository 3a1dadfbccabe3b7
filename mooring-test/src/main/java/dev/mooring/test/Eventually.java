package dev.mooring.test;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * Waiting for a condition in a test: polls a check every 100 ms until its value is accepted or
 * the timeout passes. The timeout bounds the wait; it is never an assertion on speed. A check
 * that throws is tried again (the cluster may not have the object yet); the last exception
 * becomes the cause of the failure.
 */
public final class Eventually {

    private static final long PAUSE_MILLIS = 100;

    private Eventually() {
    }

    /** A value to wait on, read again at every poll; it may throw while the condition does not hold yet. */
    @FunctionalInterface
    public interface Check<T> {

        T get() throws Exception;
    }

    /**
     * Waits until {@code check} answers a value that {@code accept} accepts.
     *
     * @return the accepted value
     * @throws AssertionError naming {@code what}, the timeout and the last value (the last
     *     exception as its cause) when the timeout passes first, or when the thread is interrupted
     */
    public static <T> T await(String what, Duration timeout, Check<T> check, Predicate<T> accept) {
        long end = System.nanoTime() + timeout.toNanos();
        T last = null;
        Exception lastError = null;
        do {
            try {
                last = check.get();
                lastError = null;
                if (accept.test(last)) {
                    return last;
                }
            } catch (Exception e) {
                lastError = e;
            }
            pause(what);
        } while (System.nanoTime() < end);
        AssertionError failure = new AssertionError("Timed out after " + timeout.toMillis() + " ms waiting for " + what
                + (lastError == null ? "; last value: " + last : "; the last check threw " + lastError));
        if (lastError != null) {
            failure.initCause(lastError);
        }
        throw failure;
    }

    /**
     * Waits until {@code condition} answers true.
     *
     * @throws AssertionError as {@link #await(String, Duration, Check, Predicate)} does
     */
    public static void await(String what, Duration timeout, Check<Boolean> condition) {
        await(what, timeout, condition, Boolean.TRUE::equals);
    }

    /**
     * Checks that {@code condition} holds now and keeps holding for {@code period}, every 100 ms
     * (controller-runtime's {@code Consistently}): for what must not happen, such as a write to an
     * object nothing changed.
     *
     * @throws AssertionError naming {@code what} and when it stopped holding (the exception as the
     *     cause, when the check threw)
     */
    public static void consistently(String what, Duration period, Check<Boolean> condition) {
        long start = System.nanoTime();
        long end = start + period.toNanos();
        do {
            boolean holds;
            try {
                holds = Boolean.TRUE.equals(condition.get());
            } catch (Exception e) {
                throw new AssertionError(what + " stopped holding after " + (System.nanoTime() - start) / 1_000_000 + " ms: " + e, e);
            }
            if (!holds) {
                throw new AssertionError(what + " stopped holding after " + (System.nanoTime() - start) / 1_000_000 + " ms");
            }
            pause(what);
        } while (System.nanoTime() < end);
    }

    private static void pause(String what) {
        try {
            Thread.sleep(PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
    }
}
