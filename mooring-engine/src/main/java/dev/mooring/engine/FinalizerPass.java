package dev.mooring.engine;

import dev.mooring.api.Cleanup;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.common.KubernetesObject;
import java.util.List;

/**
 * The finalizer protocol of a reconciler with {@link Cleanup}: an object being deleted gets
 * {@code cleanup} and then loses the finalizer (only if the finalizer is there; never
 * {@code reconcile}); any other object is reconciled as cached when it carries the finalizer (no
 * request), else first gets it with one guarded write of the cached copy (a stale copy conflicts
 * and the pass is retried), then {@code reconcile} on the object as stored.
 */
final class FinalizerPass<T extends KubernetesObject> implements Pass<T> {

    private final String finalizer;
    private final Reconciler<T> reconciler;
    private final Cleanup<T> cleanup;

    FinalizerPass(String finalizer, Reconciler<T> reconciler, Cleanup<T> cleanup) {
        this.finalizer = finalizer;
        this.reconciler = reconciler;
        this.cleanup = cleanup;
    }

    @Override
    public Result run(T object, ReconcileContext<T> context) throws Exception {
        List<String> finalizers = object.getMetadata().getFinalizers();
        boolean marked = finalizers != null && finalizers.contains(finalizer);
        if (object.getMetadata().getDeletionTimestamp() != null) {
            if (marked) {
                cleanup.cleanup(object, context);
                context.client().removeFinalizer(object, finalizer);
            }
            return Result.done();
        }
        if (marked) {
            return reconciler.reconcile(object, context);
        }
        return reconciler.reconcile(context.engineClient().addFinalizer(object, finalizer), context);
    }
}
