package dev.mooring.examples.patterns;

import dev.mooring.api.Cleanup;
import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * The finalizer pattern: something outside Kubernetes that an object owns. The runtime persists
 * the controller's finalizer before the first {@code reconcile} runs, so the bucket is never made
 * for an object that could vanish without a cleanup. {@code reconcile} makes sure the bucket exists
 * and asks to run again after {@link #REPAIR_EVERY} to repair drift no watch sees (a bucket
 * deleted outside). On deletion {@code cleanup} deletes the bucket; when the store fails it
 * throws, the finalizer stays, the deletion waits and the cleanup is retried with backoff; once it
 * succeeds the runtime removes the finalizer and Kubernetes deletes the object.
 *
 * <p>The error-status pattern: when a pass fails (the store is down), {@code failed} leaves the
 * reason in {@code status.error}, written after the pass while the retry goes on as usual; the
 * next pass that succeeds writes a status without it.
 */
@ApplicationScoped
@Controller(name = "archives", finalizer = "patterns.mooring.dev/bucket")
public class ArchiveController implements Reconciler<Archive>, Cleanup<Archive> {

    /** How often a bucket's existence is checked again without any change. */
    public static final Duration REPAIR_EVERY = Duration.ofMinutes(10);

    private final BucketStore store;
    private final Duration repairEvery;

    /** With the in-memory stand-in (replace it with a durable store before real use). */
    public ArchiveController() {
        this(new InMemoryBuckets(), REPAIR_EVERY);
    }

    public ArchiveController(BucketStore store, Duration repairEvery) {
        this.store = store;
        this.repairEvery = repairEvery;
    }

    @Override
    public Result reconcile(Archive archive, Context<Archive> context) throws Exception {
        String bucket = bucket(archive);
        store.ensure(bucket);
        context.updateStatus(a -> {
            Archive.Status status = new Archive.Status();
            status.bucket = bucket;
            a.setStatus(status);
        });
        return Result.requeueAfter(repairEvery);
    }

    @Override
    public void failed(Archive archive, Context<Archive> context, Exception error) {
        context.updateStatus(a -> {
            Archive.Status status = a.getStatus() == null ? new Archive.Status() : a.getStatus();
            status.error = error.getMessage();
            a.setStatus(status);
        });
    }

    @Override
    public void cleanup(Archive archive, Context<Archive> context) throws Exception {
        store.delete(bucket(archive)); // idempotent: a retry after a partial failure is safe
    }

    /** One bucket per object, named after its namespace, name and UID (a new object of the same name gets a new bucket). */
    static String bucket(Archive archive) {
        return archive.getMetadata().getNamespace() + "-" + archive.getMetadata().getName() + "-"
                + archive.getMetadata().getUid().substring(0, 8);
    }
}
