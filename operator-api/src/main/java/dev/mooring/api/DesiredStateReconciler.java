package dev.mooring.api;

import io.kubernetes.client.common.KubernetesObject;

/**
 * A reconciler that returns the object as it should be instead of writing it — the reference's
 * core contract, as an opt-in alternative to {@link Reconciler}. Annotate the bean
 * {@link Controller} as any reconciler:
 *
 * <pre>{@code
 * @ApplicationScoped
 * @Controller(name = "labels")
 * public class TeamLabel implements DesiredStateReconciler<V1ConfigMap> {
 *     public V1ConfigMap desired(V1ConfigMap map, Context<V1ConfigMap> context) {
 *         map.getMetadata().putLabelsItem("team", "blue");   // edit the copy you are given
 *         return map;
 *     }
 * }
 * }</pre>
 *
 * <p>What is guaranteed: {@code desired} gets a copy of the cached object; the runtime compares
 * what it returns with the object the pass began with and writes only the differences, and
 * nothing — no request — when there are none (or when it returns null). Differences outside
 * {@code status} are sent as one JSON Patch with tests on the object's UID and resourceVersion, so
 * a copy that went stale meanwhile is a conflict and the pass is retried with the newer object;
 * differences in {@code status} are written through the status subresource after the pass, as
 * {@link Context#updateStatus} does. The other calls of the context (children, conditions,
 * Events, the live client) work as in any pass. A pass that returns counts as a success without a
 * requeue; throw {@link Wait} or {@link TerminalException} as from {@link Reconciler#reconcile},
 * and any other exception to be retried with backoff.
 *
 * @param <T> the primary kind
 */
@FunctionalInterface
public interface DesiredStateReconciler<T extends KubernetesObject> {

    /**
     * The object as it should be: {@code resource} edited and returned, another object with the
     * same identity, or null for no change. Changes of its name, namespace, UID or kind are
     * refused by the API server.
     *
     * @throws Exception to be retried with backoff ({@link Wait} and {@link TerminalException} as for {@link Reconciler})
     */
    T desired(T resource, Context<T> context) throws Exception;
}
