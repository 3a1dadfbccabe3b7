package dev.mooring.engine.pass;

import dev.mooring.api.Cleanup;
import dev.mooring.api.DesiredStateReconciler;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.StagePlan;
import io.kubernetes.client.common.KubernetesObject;

/**
 * One kind of reconcile pass over a copy of the cached object, chosen once when the controller is
 * built ({@link #of}): a plain {@code Reconciler}'s {@code reconcile}, the stages of a
 * {@code Staged} bean ({@link StagePipeline}), the returned object of a
 * {@code DesiredStateReconciler} ({@link DesiredStateAdapter}); each, for a bean with
 * {@link Cleanup}, inside the finalizer protocol ({@link FinalizerPass}). Every kind gets the
 * pass's own context, so none has to cast the author's {@code Context} back.
 */
@FunctionalInterface
public interface Pass<T extends KubernetesObject> {

    /** Runs the pass; what it throws decides the {@link Outcome}. */
    Result run(T object, ReconcileContext<T> context) throws Exception;

    /**
     * After {@link #run} failed (an error or a terminal error): the bean's chance to stage the
     * status the failure leaves ({@code Reconciler.failed}). Nothing by default.
     */
    default void failed(T object, ReconcileContext<T> context, Exception error) {
    }

    /**
     * The pass of a controller's bean: with {@code stages}, the {@link StagePipeline} of that plan;
     * for a {@code DesiredStateReconciler}, a {@link DesiredStateAdapter}; for a {@code Reconciler},
     * its {@code reconcile} and {@code failed}. With a finalizer declared (only allowed for a bean that implements
     * {@link Cleanup}, as {@code ControllerOptions} checks), that pass inside the finalizer protocol.
     *
     * @param stages the bean's stage plan, or null if it is not {@code Staged}
     * @throws IllegalArgumentException naming the bean's class if it is none of these
     */
    @SuppressWarnings("unchecked")
    static <T extends KubernetesObject> Pass<T> of(ControllerDefinition definition, Object bean, StagePlan stages) {
        Pass<T> body;
        if (stages != null) {
            body = new StagePipeline<>(stages, bean);
        } else if (bean instanceof DesiredStateReconciler<?> desired) {
            body = new DesiredStateAdapter<>((DesiredStateReconciler<T>) desired);
        } else if (bean instanceof Reconciler<?> reconciler) {
            body = new ReconcilerPass<>((Reconciler<T>) reconciler);
        } else {
            throw new IllegalArgumentException(bean.getClass().getName() + " of controller " + definition.name()
                    + " is neither a Reconciler, a DesiredStateReconciler nor Staged");
        }
        if (definition.finalizer() != null && bean instanceof Cleanup<?> cleanup) {
            return new FinalizerPass<>(definition.finalizer(), body, (Cleanup<T>) cleanup);
        }
        return body;
    }
}
