package dev.mooring.examples.patterns;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * A connection to an external system that one replica at a time may hold (a single writer, a
 * licence): opened when its scope begins, closed when it ends. It counts the publications in
 * flight, so that closing it while a worker still uses it would show.
 */
public final class PublisherSession {

    private static final Logger LOG = Logger.getLogger(PublisherSession.class.getName());

    private final String holder;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean closed;

    PublisherSession(String holder) {
        this.holder = holder;
        LOG.info(() -> "Publisher session opened for " + holder);
    }

    /**
     * Publishes one record.
     *
     * @throws IllegalStateException when the session is closed
     */
    public void publish(String record, Runnable whilePublishing) {
        inFlight.incrementAndGet();
        try {
            if (closed) {
                throw new IllegalStateException("the publisher session of " + holder + " is closed");
            }
            whilePublishing.run();
            LOG.info(() -> "Published " + record + " in the session of " + holder);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    void close(String why) {
        closed = true;
        LOG.info(() -> "Publisher session of " + holder + " closed (" + why + ") with " + inFlight.get() + " publication(s) in flight");
    }
}
