package dev.mooring.engine.informer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How far an informer has read the history of its kind: the resourceVersion of the last event,
 * bookmark or list it applied to its cache. A watch delivers a kind's changes in resourceVersion
 * order, so once an informer has applied version {@code v}, its cache holds every change of its
 * scope up to {@code v}: a write answered with version {@code w <= v} is in it (or the object left
 * the scope). Written by the informer's thread; waited on by passes (read-your-writes).
 *
 * <p>Versions are compared as numbers, as the API server makes them (etcd's revisions; Kubernetes
 * 1.35 documents them as comparable). A version that is not a number is not applied: a wait for a
 * number it cannot see ends at its deadline. Public for the engine's test sources.
 */
public final class SeenVersion {

    private volatile long seen = -1;
    /** Threads in {@link #await}: the informer's thread signals only when some wait. */
    private final AtomicInteger waiting = new AtomicInteger();

    /** The version applied last, -1 before the first. */
    public long get() {
        return seen;
    }

    /** How many threads wait in {@link #await} now. */
    public int waiting() {
        return waiting.get();
    }

    /** The informer applied {@code resourceVersion} (an event's, a bookmark's or a list's); one thread applies. */
    public void applied(String resourceVersion) {
        seen = Math.max(seen, parse(resourceVersion));
        if (waiting.get() != 0) {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    /**
     * Waits until the version applied is at least {@code version}, or until {@code deadlineNanos}
     * ({@link System#nanoTime()}).
     *
     * @return whether it was reached
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean await(long version, long deadlineNanos) throws InterruptedException {
        waiting.incrementAndGet();
        try {
            synchronized (this) {
                for (long left = deadlineNanos - System.nanoTime(); seen < version && left > 0; left = deadlineNanos - System.nanoTime()) {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
                return seen >= version;
            }
        } finally {
            waiting.decrementAndGet();
        }
    }

    /** {@code resourceVersion} as a number, or -1 when it is null or not one (of at most 18 digits). */
    public static long parse(String resourceVersion) {
        if (resourceVersion == null || resourceVersion.isEmpty() || resourceVersion.length() > 18) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < resourceVersion.length(); i++) {
            char c = resourceVersion.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
