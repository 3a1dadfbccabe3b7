package dev.mooring.engine.queue;

/**
 * How soon a key added to a {@link WorkQueue} is handed out relative to the others waiting.
 *
 * <p>A controller adds the objects of an informer's initial list and of a resync (an update whose
 * resourceVersion did not change) as {@link #LOW}: backlog that re-checks objects nobody
 * changed. Everything a watch reports is {@link #NORMAL}: a fresh change, handed out ahead of
 * that backlog. controller-runtime's priority queue makes the same split (its initial-list and
 * resync events at priority -100).
 */
public enum Priority {
    /** A fresh change: handed out before backlog keys, but never so as to starve them (see {@link WorkQueue}). */
    NORMAL,
    /** Backlog: an initial list or a resync. */
    LOW
}
