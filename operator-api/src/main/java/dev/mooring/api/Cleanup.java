package dev.mooring.api;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Implemented by a {@link Reconciler} whose objects own something that Kubernetes garbage
 * collection cannot remove (an external resource, a DNS record, a bucket). The controller must
 * name its finalizer: {@code @Controller(finalizer = "example.com/cleanup")}.
 *
 * <p>Mooring then persists the finalizer on every object before {@link Reconciler#reconcile} runs
 * (so nothing external is created for an object that could vanish without cleanup). When the
 * object is being deleted, {@link #cleanup} is called instead of {@code reconcile}, retried with
 * backoff until it returns normally; then the finalizer is removed and Kubernetes completes the
 * deletion. Other controllers' finalizers are never touched.
 *
 * @param <T> the primary kind
 */
public interface Cleanup<T extends KubernetesObject> {

    /**
     * Remove what the object owns outside Kubernetes. It may run more than once for one deletion
     * (after a failure, a restart, or a conflict while removing the finalizer): it must be
     * idempotent, and "already gone" counts as success.
     *
     * @throws Exception to be retried with backoff; the finalizer stays and the deletion waits
     */
    void cleanup(T resource, Context<T> context) throws Exception;
}
