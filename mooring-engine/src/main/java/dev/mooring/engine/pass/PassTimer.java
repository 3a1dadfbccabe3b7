package dev.mooring.engine.pass;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Measures one pass on its worker thread and, with a reconcile timeout, interrupts the thread when
 * the timeout passes. {@link #stop()} ends both on the same thread and clears an interrupt that
 * was meant for the pass, not for the worker.
 */
public final class PassTimer {

    private final long start = System.nanoTime();
    private final ScheduledFuture<?> timeout;
    private volatile boolean expired;
    private long nanos = -1;

    private PassTimer(ScheduledExecutorService scheduler, Duration timeout) {
        Thread worker = Thread.currentThread();
        this.timeout = timeout == null ? null : scheduler.schedule(() -> {
            expired = true;
            worker.interrupt();
        }, timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Starts timing the current thread's pass; {@code timeout} null for none. */
    public static PassTimer start(ScheduledExecutorService scheduler, Duration timeout) {
        return new PassTimer(scheduler, timeout);
    }

    /** Whether the timeout passed (and the thread was interrupted). */
    public boolean expired() {
        return expired;
    }

    /** Ends the pass: the timeout is cancelled and the pass's interrupt, if any, cleared. Idempotent. */
    public void stop() {
        if (nanos >= 0) {
            return;
        }
        nanos = System.nanoTime() - start;
        if (timeout != null) {
            timeout.cancel(false);
            if (expired) {
                Thread.interrupted();
            }
        }
    }

    /** How long the pass ran, once stopped. */
    public long nanos() {
        return nanos;
    }
}
