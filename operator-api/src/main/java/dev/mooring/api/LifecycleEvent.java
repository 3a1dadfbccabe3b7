package dev.mooring.api;

/**
 * A CDI event about the operator's lifetime. Observe it in any bean of the application:
 *
 * <pre>{@code
 * void onLeadership(@Observes LifecycleEvent event) {
 *     if (event.scope() == LifecycleEvent.Scope.LEADER && event.type() == LifecycleEvent.Type.LEADERSHIP_ACQUIRED) { ... }
 * }
 * }</pre>
 *
 * <p>Process scope: {@link Type#STARTUP} when the application starts (also on standby replicas),
 * {@link Type#SHUTDOWN} when it stops, {@link Type#FAILURE} when the runtime fails fatally.
 * Leader scope (with leader election): {@link Type#LEADERSHIP_ACQUIRED} when this replica is
 * elected, before its informers start; then, when the term ends, {@link Type#SHUTDOWN} (the
 * application stops), {@link Type#LEADERSHIP_LOST} or {@link Type#FAILURE}, after the workers
 * have stopped and before the Lease is released. Observers run synchronously on a managed
 * thread: keep them short; an exception from an observer is logged and does not stop Mooring.
 *
 * @param type what happened
 * @param scope process or leader
 * @param identity this replica's election identity (leader scope), else null
 * @param error the cause of a loss or failure, else null
 */
public record LifecycleEvent(Type type, Scope scope, String identity, Throwable error) {

    /** What happened. */
    public enum Type {
        STARTUP, LEADERSHIP_ACQUIRED, SHUTDOWN, LEADERSHIP_LOST, FAILURE
    }

    /** Whose lifetime: the process (every replica) or a leadership term. */
    public enum Scope {
        PROCESS, LEADER
    }
}
