package dev.mooring.engine.pass;

import dev.mooring.api.Cleanup;
import dev.mooring.api.Result;
import io.kubernetes.client.common.KubernetesObject;
import java.util.List;

/**
 * The finalizer protocol of a bean with {@link Cleanup} around its pass: an object being deleted gets
 * {@code cleanup} and then loses the finalizer (only if the finalizer is there; never
 * its pass); any other object is passed as cached when it carries the finalizer (no
 * request), else first gets it with one guarded write of the cached copy (a stale copy conflicts
 * and the pass is retried), then passed as stored.
 */
final class FinalizerPass<T extends KubernetesObject> implements Pass<T> {

    private final String finalizer;
    private final Pass<T> body;
    private final Cleanup<T> cleanup;

    /** @param body the pass of an object that is not being deleted */
    FinalizerPass(String finalizer, Pass<T> body, Cleanup<T> cleanup) {
        this.finalizer = finalizer;
        this.body = body;
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
            return body.run(object, context);
        }
        T withFinalizer = context.engineClient().addFinalizer(object, finalizer);
        context.primaryWritten(withFinalizer);
        return body.run(withFinalizer, context);
    }

    /** The body's failure hook, for a failure of the finalizer protocol or of cleanup as for one of the body. */
    @Override
    public void failed(T object, ReconcileContext<T> context, Exception error) {
        body.failed(object, context, error);
    }
}
