package dev.mooring.examples.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.ResourceClient;
import dev.mooring.test.Eventually;
import dev.mooring.test.MooringExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The finalizer pattern against the local API server, with a store that fails when the test says. */
class ArchiveControllerTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final FlakyStore STORE = new FlakyStore();

    @RegisterExtension
    static final MooringExtension mooring = MooringExtension.embedded(new ArchiveController(STORE, Duration.ofSeconds(1)));

    private final ResourceClient client = mooring.client();

    @Test
    void theFinalizerIsPersistedBeforeTheBucketAndTheDeletionWaitsForACleanupThatSucceeds() {
        client.create(new Archive(mooring.namespace(), "reports"));
        Archive archive = mooring.awaitObject(Archive.class, "reports", a -> a.getStatus() != null && a.getStatus().bucket != null,
                PATIENCE);
        String bucket = archive.getStatus().bucket;
        assertTrue(STORE.exists(bucket));
        assertEquals(List.of("patterns.mooring.dev/bucket"), archive.getMetadata().getFinalizers());
        assertTrue(STORE.finalizerPersistedAtFirstEnsure, "the bucket was made only once the finalizer was stored");

        STORE.deletesToFail.set(2);
        client.delete(archive);
        Eventually.await("two failed cleanups", PATIENCE, () -> STORE.deleteAttempts.get() >= 2);
        Archive waiting = client.get(Archive.class, null, "reports").orElseThrow();
        assertTrue(waiting.getMetadata().getDeletionTimestamp() != null && waiting.getMetadata().getFinalizers() != null,
                "the deletion waits while the cleanup fails");

        mooring.awaitGone(Archive.class, "reports", PATIENCE); // after a cleanup that succeeded
        assertFalse(STORE.exists(bucket));
        assertTrue(STORE.deleteAttempts.get() >= 3, "retried: " + STORE.deleteAttempts.get());
    }

    @Test
    void aFailedPassLeavesItsReasonInTheStatusUntilAPassSucceeds() {
        STORE.ensuresToFail.set(Integer.MAX_VALUE); // down until the test has seen the error
        client.create(new Archive(mooring.namespace(), "broken"));
        Archive failed = mooring.awaitObject(Archive.class, "broken", a -> a.getStatus() != null && a.getStatus().error != null, PATIENCE);
        assertEquals("the store is unavailable", failed.getStatus().error);
        STORE.ensuresToFail.set(0);
        Archive mended = mooring.awaitObject(Archive.class, "broken", a -> a.getStatus() != null && a.getStatus().bucket != null,
                PATIENCE); // the retry with backoff, unchanged by the hook
        assertEquals(null, mended.getStatus().error, "a pass that succeeded writes a status without the error");
    }

    @Test
    void aBucketDeletedOutsideIsMadeAgainByTheTimedRepair() {
        client.create(new Archive(mooring.namespace(), "logs"));
        String bucket = mooring.awaitObject(Archive.class, "logs", a -> a.getStatus() != null && a.getStatus().bucket != null,
                PATIENCE).getStatus().bucket;
        STORE.delete(bucket); // drift no watch sees

        Eventually.await("the bucket made again by the timed repair", PATIENCE, () -> STORE.exists(bucket));
        STORE.delete(bucket);
        // the store reports the change: the observer asks the controller for a pass (Controllers.enqueue, here the test kit's)
        new BucketEvents((controller, key) -> mooring.enqueue(controller, key.name()))
                .changed(new BucketEvents.BucketChanged(mooring.namespace(), "logs"));
        Eventually.await("the bucket made again on request", PATIENCE, () -> STORE.exists(bucket));
    }

    /** The in-memory store, whose next deletes fail on request; it checks the finalizer is stored when a bucket is first made. */
    static final class FlakyStore extends InMemoryBuckets {

        final AtomicInteger deletesToFail = new AtomicInteger();
        final AtomicInteger ensuresToFail = new AtomicInteger();
        final AtomicInteger deleteAttempts = new AtomicInteger();
        final List<String> made = new CopyOnWriteArrayList<>();
        volatile boolean finalizerPersistedAtFirstEnsure;

        @Override
        public void ensure(String bucket) {
            if (bucket.contains("-broken-") && ensuresToFail.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IllegalStateException("the store is unavailable");
            }
            if (!made.contains(bucket)) {
                made.add(bucket);
                String name = bucket.substring(mooring.namespace().length() + 1, bucket.lastIndexOf('-'));
                finalizerPersistedAtFirstEnsure = mooring.client().get(Archive.class, null, name).orElseThrow().getMetadata()
                        .getFinalizers().contains("patterns.mooring.dev/bucket");
            }
            super.ensure(bucket);
        }

        @Override
        public void delete(String bucket) {
            if (bucket.contains("-reports-")) {
                deleteAttempts.incrementAndGet();
                if (deletesToFail.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    throw new IllegalStateException("the store is unavailable");
                }
            }
            super.delete(bucket);
        }
    }
}
