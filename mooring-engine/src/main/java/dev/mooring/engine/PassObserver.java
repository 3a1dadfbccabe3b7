package dev.mooring.engine;

import dev.mooring.engine.informer.Informer;
import dev.mooring.engine.pass.Outcome;
import java.time.Duration;

/**
 * Told about every finished reconcile pass, every new informer and each controller's queue (for
 * metrics); called on the engine's threads, must be fast.
 */
public interface PassObserver {

    /** Observes nothing. */
    PassObserver NONE = (controller, outcome, duration) -> { };

    void passed(String controller, Outcome.Kind outcome, Duration duration);

    /** Controller {@code controller} gave a key up after its retries ran out ({@code retryLimit}). */
    default void gaveUp(String controller) {
    }

    /**
     * A read of controller {@code controller}'s pass found a write of the runtime its cache had not
     * delivered, and waited: until the cache delivered it ({@code caughtUp}), or the bound passed.
     */
    default void readWaited(String controller, boolean caughtUp) {
    }

    /** An informer was created (before it starts); for its gauges. */
    default void informerCreated(Informer<?> informer) {
    }

    /** An informer was stopped for good (its namespace left a controller's set); its gauges go. */
    default void informerReleased(Informer<?> informer) {
    }

    /** Where the spans of passes go, asked once per controller; {@link dev.mooring.engine.trace.Tracing#NONE} by default. */
    default dev.mooring.engine.trace.Tracing tracing() {
        return dev.mooring.engine.trace.Tracing.NONE;
    }

    /** The observer of controller {@code controller}'s work queue, asked once when the queue is made. */
    default dev.mooring.engine.queue.QueueObserver queue(String controller) {
        return dev.mooring.engine.queue.QueueObserver.NONE;
    }
}
