package dev.mooring.engine.informer;

import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.kube.Backoff;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Whether the API server answers one informer, as health and metrics report it, and how long the
 * informer waits before it tries again: the first failure of a run is a WARNING, the rest FINE,
 * and the recovery is said once. Written by the informer's own thread; read from any.
 */
final class ApiContact {

    /** The informer's own logger: its reconnect messages stay where operators look for them. */
    private static final Logger LOG = Logger.getLogger(Informer.class.getName());

    /** The first delay before reconnecting after a failed list or watch; it doubles up to {@link #RECONNECT_CAP}. */
    static final Duration FIRST_RECONNECT = Duration.ofMillis(250);
    /**
     * The longest delay between two reconnection attempts (or {@code mooring.retry.max-delay} when
     * smaller): short, so that the informer is back within seconds of the API server, whatever
     * the outage lasted. The delay starts again from {@link #FIRST_RECONNECT} after every
     * successful list or watch, and each wait is jittered (between half and all of it) so that
     * informers that lost the server together do not come back together.
     */
    static final Duration RECONNECT_CAP = Duration.ofSeconds(4);

    private final Supplier<String> description;
    private final Backoff reconnects;
    private volatile boolean connected;
    private volatile long lastContactMillis;
    private volatile String lastProblem;
    /** Failed lists and watches since the API server last answered: how long the next reconnect waits. */
    private int failures;

    /** @param cap the configured cap of retries ({@code mooring.retry.max-delay}) */
    ApiContact(Supplier<String> description, Duration cap) {
        this.description = description;
        Duration shorter = cap.compareTo(RECONNECT_CAP) < 0 ? cap : RECONNECT_CAP;
        this.reconnects = Backoff.exponential(shorter.compareTo(FIRST_RECONNECT) < 0 ? shorter : FIRST_RECONNECT, shorter)
                .withJitter(0.5, 1.0);
    }

    /** The API server answered: reconnection delays start from the beginning again. */
    void answered() {
        if (!connected && lastProblem != null) {
            LOG.info(() -> "The API server answers the informer of " + description.get() + " again");
        }
        connected = true;
        lastContactMillis = System.currentTimeMillis();
        failures = 0;
    }

    /** An event arrived on the watch. */
    void heard() {
        lastContactMillis = System.currentTimeMillis();
    }

    /** A list or watch failed with {@code e}; returns how long to wait before the next. */
    Duration failed(KubernetesException e) {
        boolean first = connected || lastProblem == null;
        connected = false;
        lastProblem = e.getMessage();
        Duration delay = reconnects.delay(failures++);
        LOG.log(first ? Level.WARNING : Level.FINE, "Watch of {0} failed, retrying in {1} s: {2}",
                new Object[] {description.get(), delay.toMillis() / 1000.0, e.getMessage()});
        return delay;
    }

    boolean connected() {
        return connected;
    }

    long lastContactMillis() {
        return lastContactMillis;
    }

    String lastProblem() {
        return lastProblem;
    }
}
