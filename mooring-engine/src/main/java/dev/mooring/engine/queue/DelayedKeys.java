package dev.mooring.engine.queue;

import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * The work queue's delayed keys: the authoritative deadline per key, plus a heap ordered by
 * deadline whose entries are stale when they no longer match the key's deadline (lazy
 * deletion). No thread or timer per key: the queue's consumers drain what is due. Not
 * thread-safe; the queue calls it with its lock held. Deadlines are {@code System.nanoTime()}
 * values of the queue's ticker, compared by difference (they may wrap).
 */
final class DelayedKeys<K> {

    private record Delayed<K>(K key, long deadline, long sequence) implements Comparable<Delayed<K>> {
        @Override
        public int compareTo(Delayed<K> other) {
            int byDeadline = Long.compare(deadline - other.deadline, 0);
            return byDeadline != 0 ? byDeadline : Long.compare(sequence, other.sequence);
        }
    }

    private final Map<K, Delayed<K>> deadlines = new HashMap<>();
    private final PriorityQueue<Delayed<K>> heap = new PriorityQueue<>();
    private long sequence;

    /**
     * Delays {@code key} until {@code deadline}, unless it is already due earlier.
     *
     * @return true when the key's deadline changed
     */
    boolean schedule(K key, long deadline) {
        Delayed<K> existing = deadlines.get(key);
        if (existing != null && existing.deadline - deadline <= 0) {
            return false;
        }
        Delayed<K> entry = new Delayed<>(key, deadline, sequence++);
        deadlines.put(key, entry);
        heap.add(entry);
        return true;
    }

    /** Forgets the key's delay (it became ready another way). */
    void cancel(K key) {
        deadlines.remove(key);
    }

    /** Hands every key whose deadline is not after {@code now} to {@code due}, earliest first. */
    void promoteDue(long now, Consumer<K> due) {
        Delayed<K> head;
        while ((head = heap.peek()) != null && head.deadline - now <= 0) {
            heap.poll();
            if (deadlines.get(head.key) == head) {
                deadlines.remove(head.key);
                due.accept(head.key);
            }
        }
    }

    /** The nanoseconds until the earliest deadline, at least 1; or -1 when nothing is delayed. */
    long nanosUntilNext(long now) {
        Delayed<K> head;
        while ((head = heap.peek()) != null && deadlines.get(head.key) != head) {
            heap.poll();
        }
        return head == null ? -1 : Math.max(1, head.deadline - now);
    }

    boolean isEmpty() {
        return deadlines.isEmpty();
    }

    int size() {
        return deadlines.size();
    }

    void clear() {
        deadlines.clear();
        heap.clear();
    }
}
