package dev.mooring.engine.pass;

import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.common.KubernetesObject;

/** The pass of a plain {@link Reconciler}: its {@code reconcile}, and its {@code failed} after a failure. */
final class ReconcilerPass<T extends KubernetesObject> implements Pass<T> {

    private final Reconciler<T> reconciler;

    ReconcilerPass(Reconciler<T> reconciler) {
        this.reconciler = reconciler;
    }

    @Override
    public Result run(T object, ReconcileContext<T> context) throws Exception {
        return reconciler.reconcile(object, context);
    }

    @Override
    public void failed(T object, ReconcileContext<T> context, Exception error) {
        reconciler.failed(object, context, error);
    }
}
