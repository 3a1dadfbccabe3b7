package dev.mooring.engine.queue;

import dev.mooring.engine.kube.Backoff;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * When a key that failed is processed again: the work queue's retry policy, kept apart from the
 * queue as client-go keeps its rate limiters apart from its work queue. Implementations are safe
 * for concurrent use.
 *
 * @param <K> the key type
 */
public interface RetryPolicy<K> {

    /**
     * Count one more failure of {@code key} and return how long to wait before processing it again.
     */
    Duration when(K key);

    /** Reset the failures of {@code key}: after a success, or a failure no retry mends. */
    void forget(K key);

    /** Failures of {@code key} counted by {@link #when} since its last {@link #forget}. */
    int numRequeues(K key);

    /**
     * Each key's own exponential backoff: the {@code n}-th consecutive failure of a key waits
     * {@code backoff.delay(n - 1)}, whatever other keys do (client-go's
     * {@code ItemExponentialFailureRateLimiter}).
     */
    static <K> RetryPolicy<K> perKey(Backoff backoff) {
        Objects.requireNonNull(backoff, "backoff");
        return new RetryPolicy<>() {
            private final Map<K, Integer> failures = new HashMap<>();

            @Override
            public synchronized Duration when(K key) {
                int failed = failures.getOrDefault(key, 0);
                failures.put(key, failed + 1);
                return backoff.delay(failed);
            }

            @Override
            public synchronized void forget(K key) {
                failures.remove(key);
            }

            @Override
            public synchronized int numRequeues(K key) {
                return failures.getOrDefault(key, 0);
            }
        };
    }
}
