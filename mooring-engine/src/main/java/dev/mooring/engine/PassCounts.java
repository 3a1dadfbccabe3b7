package dev.mooring.engine;

import java.util.concurrent.atomic.AtomicLong;

/** The counted outcomes of a controller's passes and their total duration, for its status. */
final class PassCounts {

    private final AtomicLong successes = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong terminalErrors = new AtomicLong();
    private final AtomicLong cancellations = new AtomicLong();
    private final AtomicLong durationNanos = new AtomicLong();

    void succeeded() {
        successes.incrementAndGet();
    }

    void failed() {
        errors.incrementAndGet();
    }

    void failedTerminally() {
        terminalErrors.incrementAndGet();
    }

    void cancelled() {
        cancellations.incrementAndGet();
    }

    void took(long nanos) {
        durationNanos.addAndGet(nanos);
    }

    long successes() {
        return successes.get();
    }

    long errors() {
        return errors.get();
    }

    long terminalErrors() {
        return terminalErrors.get();
    }

    long cancellations() {
        return cancellations.get();
    }

    double durationSeconds() {
        return durationNanos.get() / 1e9;
    }
}
