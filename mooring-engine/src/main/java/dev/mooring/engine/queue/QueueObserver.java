package dev.mooring.engine.queue;

import java.time.Duration;

/**
 * Told what happens to the keys of one {@link WorkQueue}, for metrics (as client-go's queue
 * metrics provider): called with the queue's lock held, so it must be fast and must not call
 * the queue back.
 */
public interface QueueObserver {

    /** Observes nothing. */
    QueueObserver NONE = new QueueObserver() {
    };

    /** A key became ready that was not ready already (an add that did not collapse into another). */
    default void added() {
    }

    /** A key was handed to a worker after waiting {@code queued} since it became ready. */
    default void waited(Duration queued) {
    }

    /** A key was scheduled again with backoff ({@link WorkQueue#retry}). */
    default void retried() {
    }

    /** A worker released a key after holding it for {@code processing}. */
    default void worked(Duration processing) {
    }
}
