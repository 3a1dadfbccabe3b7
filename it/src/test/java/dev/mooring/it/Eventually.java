package dev.mooring.it;

import java.time.Duration;
import java.util.function.Supplier;

/** Polls a condition until it holds; the timeout bounds the wait and is never an assertion on speed. */
final class Eventually {

    private Eventually() {
    }

    interface Check<T> {
        T get() throws Exception;
    }

    /** Waits until {@code check} returns a value accepted by {@code accept}, returning it. */
    static <T> T await(String what, Duration timeout, Check<T> check, java.util.function.Predicate<T> accept)
            throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        T last = null;
        Exception lastError = null;
        while (System.nanoTime() < end) {
            try {
                last = check.get();
                lastError = null;
                if (accept.test(last)) {
                    return last;
                }
            } catch (Exception e) {
                lastError = e;
            }
            Thread.sleep(100);
        }
        AssertionError failure = new AssertionError("Timed out after " + timeout.toSeconds() + " s waiting for " + what
                + "; last value: " + last);
        if (lastError != null) {
            failure.initCause(lastError);
        }
        throw failure;
    }

    static void await(String what, Duration timeout, Supplier<Boolean> condition) throws InterruptedException {
        await(what, timeout, condition::get, Boolean::booleanValue);
    }
}
