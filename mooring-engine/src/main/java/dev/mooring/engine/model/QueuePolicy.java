package dev.mooring.engine.model;

import java.time.Duration;

/**
 * How a controller's work queue retries failed passes and paces all of them, as resolved from
 * {@code @Controller} and {@code mooring.controller.<name>.*} by {@link ControllerOptions}.
 *
 * @param baseDelay the first retry's delay, doubling on each further failure; null for the
 *     deployment's {@code mooring.retry.base-delay}
 * @param maxDelay the longest retry delay; null for the deployment's {@code mooring.retry.max-delay}
 * @param retryLimit how many times a failing key is retried before it is given up until its
 *     object changes; 0 for no limit
 * @param maxPassRate passes a second at most, retries and fresh changes alike (a token bucket); 0 for no limit
 * @param passBurst passes at once after a quiet spell; 0 for one second's worth of the rate
 */
public record QueuePolicy(Duration baseDelay, Duration maxDelay, int retryLimit, double maxPassRate, int passBurst) {

    /** Retried for ever from the deployment's delays, passes not limited: the defaults of {@code @Controller}. */
    public static final QueuePolicy DEFAULTS = new QueuePolicy(null, null, 0, 0, 0);

    /** The bucket's size: {@code passBurst}, or one second's worth of the rate (at least 1). */
    public int burst() {
        return passBurst > 0 ? passBurst : (int) Math.max(1, Math.ceil(maxPassRate));
    }

    /** This policy's delays, those of the deployment filling in what it leaves open. */
    public Duration baseDelayOr(Duration deployment) {
        return baseDelay == null ? deployment : baseDelay;
    }

    /** This policy's longest delay, the deployment's filling in. */
    public Duration maxDelayOr(Duration deployment) {
        return maxDelay == null ? deployment : maxDelay;
    }
}
