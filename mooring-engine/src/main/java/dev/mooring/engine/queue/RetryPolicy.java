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

    /** Default first retry delay: 1 second. */
    Duration DEFAULT_BASE_DELAY = Duration.ofSeconds(1);
    /** Default retry delay cap: 60 seconds. */
    Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(60);
    /** Default relative jitter applied to retry delays: 0.1 (&plusmn;10 %). */
    double DEFAULT_JITTER = 0.1;

    /**
     * Count one more failure of {@code key} and return how long to wait before processing it again.
     */
    Duration when(K key);

    /** Reset the failures of {@code key}: after a success, or a failure no retry mends. */
    void forget(K key);

    /** Failures of {@code key} counted by {@link #when} since its last {@link #forget}. */
    int numRequeues(K key);

    /** {@link #exponential} with the defaults: 1 s doubling to 60 s, &plusmn;10 % jitter. */
    static <K> RetryPolicy<K> defaults() {
        return exponential(DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY, DEFAULT_JITTER);
    }

    /**
     * {@link #perKey} with {@link #backoff backoff(baseDelay, maxDelay, jitter)}.
     *
     * @throws IllegalArgumentException unless {@code 0 < baseDelay <= maxDelay} and
     *     {@code 0 <= jitter <= 1}
     */
    static <K> RetryPolicy<K> exponential(Duration baseDelay, Duration maxDelay, double jitter) {
        return perKey(backoff(baseDelay, maxDelay, jitter));
    }

    /**
     * The queue's backoff for these settings: {@code baseDelay} doubling up to {@code maxDelay},
     * times a factor in {@code [1 - jitter, 1 + jitter)}.
     *
     * @throws IllegalArgumentException unless {@code 0 < baseDelay <= maxDelay} and
     *     {@code 0 <= jitter <= 1}
     */
    static Backoff backoff(Duration baseDelay, Duration maxDelay, double jitter) {
        Objects.requireNonNull(baseDelay, "baseDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        if (baseDelay.isNegative() || baseDelay.isZero() || maxDelay.compareTo(baseDelay) < 0
                || !(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException("Require 0 < baseDelay <= maxDelay and 0 <= jitter <= 1, got baseDelay="
                    + baseDelay + ", maxDelay=" + maxDelay + ", jitter=" + jitter);
        }
        return Backoff.exponential(baseDelay, maxDelay).withJitter(1 - jitter, 1 + jitter);
    }

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
