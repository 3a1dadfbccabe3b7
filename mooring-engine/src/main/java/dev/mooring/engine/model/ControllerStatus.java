package dev.mooring.engine.model;

/**
 * An immutable snapshot of one controller, for health checks and diagnostics.
 *
 * @param name controller name
 * @param kind primary kind
 * @param state lifecycle state
 * @param failure the fatal failure's message, or null
 * @param queued keys waiting for a worker
 * @param processing keys being reconciled
 * @param delayed keys with a pending retry or requeue
 * @param successes completed passes
 * @param errors failed passes that will be retried
 * @param terminalErrors failed passes that will not be retried
 * @param cancellations passes interrupted by the reconcile timeout (retried)
 * @param durationSeconds total time spent in finished passes, failed and cancelled ones included
 * @param unfinishedWorkSeconds how long the passes running now have run, added up
 * @param longestRunningSeconds how long the longest-running pass running now has run (0 when none runs)
 */
public record ControllerStatus(String name, String kind, ControllerState state, String failure, int queued,
        int processing, int delayed, long successes, long errors, long terminalErrors, long cancellations,
        double durationSeconds, double unfinishedWorkSeconds, double longestRunningSeconds) {

    public boolean ready() {
        return state == ControllerState.READY;
    }
}
