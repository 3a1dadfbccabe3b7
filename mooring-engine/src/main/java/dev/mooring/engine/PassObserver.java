package dev.mooring.engine;

import java.time.Duration;

/** Told about every finished reconcile pass and every new informer (for metrics); called on the engine's threads, must be fast. */
public interface PassObserver {

    /** Observes nothing. */
    PassObserver NONE = (controller, outcome, duration) -> { };

    void passed(String controller, Outcome.Kind outcome, Duration duration);

    /** An informer was created (before it starts); for its gauges. */
    default void informerCreated(Informer<?> informer) {
    }
}
