package dev.mooring.api;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Drives the cluster towards the state that one object of kind {@code T} asks for.
 *
 * <p>Implement it in a CDI bean annotated with {@link Controller}; Mooring discovers the bean
 * when the application deploys, watches kind {@code T} and calls {@link #reconcile} for every
 * object that is added, changed, or re-delivered by the periodic resync.
 *
 * <h2>Level-based</h2>
 * A call says "look at this object now", never "this changed": events for one object are
 * coalesced, and the object passed in is the latest cached state. Read whatever else you need
 * and make the world match. For example, when a child you created was deleted by someone, you
 * see it as missing on the next pass, not as a delete event.
 *
 * <h2>Outcomes</h2>
 * <table>
 *   <caption>What each outcome does to the key</caption>
 *   <tr><th>the call</th><th>effect</th></tr>
 *   <tr><td>returns {@link Result#done()}</td><td>failure history reset; nothing scheduled</td></tr>
 *   <tr><td>returns {@link Result#requeueAfter}</td><td>failure history reset; one more pass after the delay, no backoff</td></tr>
 *   <tr><td>throws {@link Wait}</td><td>failure history reset; one more pass after {@link Wait#after()}, no backoff</td></tr>
 *   <tr><td>throws {@link TerminalException}</td><td>not retried; logged and counted as terminal</td></tr>
 *   <tr><td>throws anything else</td><td>retried with exponential backoff (1 s doubling to 60 s, &plusmn;10 % jitter, or
 *       as {@link Controller#retryBaseDelay()} and the options beside it say)</td></tr>
 *   <tr><td>runs longer than {@link Controller#reconcileTimeout()}</td><td>interrupted, counted as cancelled, retried with backoff</td></tr>
 * </table>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Never called twice at once for the same object; different objects may be reconciled
 *       concurrently on {@link Controller#workers()} threads.</li>
 *   <li>Called only after the controller's initial list has been cached, and only for objects
 *       present in the watched scope.</li>
 *   <li>{@code resource} is a private copy: changing it never changes the cache. Persist
 *       changes explicitly through {@link Context#client()}.</li>
 *   <li>Calls may repeat (the queue is at-least-once): reconcile must be idempotent.</li>
 * </ul>
 *
 * @param <T> the primary kind, a client-java model such as {@code V1ConfigMap}
 */
@FunctionalInterface
public interface Reconciler<T extends KubernetesObject> {

    /**
     * Make the cluster match what {@code resource} asks for.
     *
     * @param resource a copy of the latest cached state of the object
     * @param context the controller's services for this pass; do not keep it after returning
     * @return the outcome; {@code null} counts as {@link Result#done()}
     * @throws Wait when the pass should end and look again later without counting a failure
     * @throws TerminalException when retrying cannot help
     * @throws Exception for any failure that a later attempt may fix; the key is retried with backoff
     */
    Result reconcile(T resource, Context<T> context) throws Exception;

    /**
     * Shape the status a failed pass leaves (the Java Operator SDK's {@code updateErrorStatus}):
     * called in the same pass, right after {@link #reconcile} threw anything but {@link Wait} — a
     * {@link TerminalException} too; not after a pass the reconcile timeout cancelled. Stage the
     * status with {@link Context#updateStatus} or {@link Context#condition}: it is written after the
     * pass, through the status subresource, together with what the pass staged before it failed.
     * The outcome stays what {@code error} makes it (a retry with backoff, no retry for a terminal
     * error, given up after {@link Controller#retryLimit()}: {@code context.attempt().last()} says a
     * failure is the last one); an exception thrown here is logged and changes nothing else. Does
     * nothing by default.
     *
     * @param resource a copy of the cached object the pass began with
     * @param context the failed pass's context
     * @param error what {@link #reconcile} threw
     */
    default void failed(T resource, Context<T> context, Exception error) {
    }
}
