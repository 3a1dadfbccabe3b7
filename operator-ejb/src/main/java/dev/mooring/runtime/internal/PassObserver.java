package dev.mooring.runtime.internal;

import java.time.Duration;

/** Told about every finished reconcile pass (for metrics); called on the worker thread, must be fast. */
public interface PassObserver {

    /** Observes nothing. */
    PassObserver NONE = (controller, outcome, duration) -> { };

    void passed(String controller, Outcome.Kind outcome, Duration duration);
}
