package dev.mooring.engine;

import dev.mooring.api.Cleanup;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.common.KubernetesObject;

/**
 * One kind of reconcile pass over a copy of the cached object, chosen once when the controller is
 * built: a plain {@code reconcile}, or the finalizer protocol around it for a reconciler with
 * {@link Cleanup} (see {@link FinalizerPass}).
 */
@FunctionalInterface
interface Pass<T extends KubernetesObject> {

    /** Runs the pass; what it throws decides the {@link Outcome}. */
    Result run(T object, ReconcileContext<T> context) throws Exception;

    /**
     * The pass for this reconciler: with a finalizer declared (only allowed for a reconciler that
     * implements {@link Cleanup}, as {@code ControllerOptions} checks), the finalizer protocol;
     * else {@code reconcile} itself.
     */
    @SuppressWarnings("unchecked")
    static <T extends KubernetesObject> Pass<T> of(String finalizer, Reconciler<T> reconciler) {
        if (finalizer != null && reconciler instanceof Cleanup<?> cleanup) {
            return new FinalizerPass<>(finalizer, reconciler, (Cleanup<T>) cleanup);
        }
        return reconciler::reconcile;
    }
}
