package dev.mooring.engine.informer;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ObjectTransform;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which sources share an informer (nothing is started: no request is sent). */
class InformerPoolTest {

    private static final Duration RESYNC = Duration.ofMinutes(5);

    private final KubeHttp http = new KubeHttp(new ApiClient().setBasePath("http://api.invalid"));
    private final InformerPool pool = new InformerPool(http, http, Duration.ofSeconds(4));

    @Test
    void aShapedCacheIsItsControllersOwnAndTheOthersStillShareTheWholeOne() {
        ObjectTransform trim = new ObjectTransform(V1ConfigMap.class, "Trim.data", object -> object);
        Informer<V1ConfigMap> whole = pool.acquire(CONFIG_MAPS, "ops", null, RESYNC);
        assertSame(whole, pool.acquire(CONFIG_MAPS, "ops", null, RESYNC, "other", null), "unshaped: shared");
        Informer<V1ConfigMap> shaped = pool.acquire(CONFIG_MAPS, "ops", null, RESYNC, "trimming", trim);
        assertNotSame(whole, shaped);
        assertSame(shaped, pool.acquire(CONFIG_MAPS, "ops", null, RESYNC, "trimming", trim), "the same controller's sources share it");
        assertNotSame(shaped, pool.acquire(CONFIG_MAPS, "ops", null, RESYNC, "another", trim), "another controller's transform: its own");
        assertEquals(3, pool.count());
    }

    @Test
    void eachDistinctInformerIsToldOnceAndACallerSeesThemAll() {
        List<Informer<?>> created = new java.util.ArrayList<>();
        InformerPool told = new InformerPool(http, http, Duration.ofSeconds(4), created::add);
        Informer<V1ConfigMap> ops = told.acquire(CONFIG_MAPS, "ops", null, RESYNC);
        told.acquire(CONFIG_MAPS, "ops", null, RESYNC);
        Informer<V1ConfigMap> selected = told.acquire(CONFIG_MAPS, "ops", dev.mooring.engine.kube.Selectors.labels("app=web"), RESYNC);
        Informer<V1ConfigMap> everywhere = told.acquire(CONFIG_MAPS, null, null, RESYNC);
        assertEquals(List.of(ops, selected, everywhere), created, "a selector or scope of its own is an informer of its own");
        assertEquals(created, told.informers());
        assertEquals(0, told.relists(), "nothing listed yet");
    }

    @Test
    void anInformerStartsOnceWithItsResyncAndNotAtAllAfterTheStop() throws Exception {
        java.util.concurrent.ExecutorService executor = java.util.concurrent.Executors.newCachedThreadPool();
        java.util.concurrent.ScheduledThreadPoolExecutor scheduler = new java.util.concurrent.ScheduledThreadPoolExecutor(1);
        scheduler.setRemoveOnCancelPolicy(true);
        try {
            Informer<V1ConfigMap> informer = pool.acquire(CONFIG_MAPS, "ops", null, RESYNC);
            pool.start(informer, executor, scheduler);
            pool.start(informer, executor, scheduler);
            assertEquals(1, scheduler.getQueue().size(), "one resync, however often it is started");
            InformerPool other = new InformerPool(http, http, Duration.ofSeconds(4));
            pool.start(other.acquire(CONFIG_MAPS, "elsewhere", null, RESYNC), executor, scheduler);
            assertEquals(1, scheduler.getQueue().size(), "another pool's informer is not started by this one");
            pool.stopAll();
            assertEquals(0, scheduler.getQueue().size(), "the resync is cancelled");
            pool.start(pool.acquire(CONFIG_MAPS, "late", null, RESYNC), executor, scheduler);
            assertEquals(0, scheduler.getQueue().size(), "nothing starts after the stop");
        } finally {
            executor.shutdownNow();
            scheduler.shutdownNow();
        }
    }

    @Test
    void anOwnInformerIsNotSharedAndAReleasedOneStopsAndIsForgotten() throws Exception {
        java.util.concurrent.ExecutorService executor = java.util.concurrent.Executors.newCachedThreadPool();
        java.util.concurrent.ScheduledThreadPoolExecutor scheduler = new java.util.concurrent.ScheduledThreadPoolExecutor(1);
        scheduler.setRemoveOnCancelPolicy(true);
        try {
            Informer<V1ConfigMap> shared = pool.acquire(CONFIG_MAPS, "ops", null, RESYNC);
            Informer<V1ConfigMap> own = pool.acquireOwn(CONFIG_MAPS, "ops", null, RESYNC, "team", null);
            assertNotSame(shared, own);
            assertSame(own, pool.acquireOwn(CONFIG_MAPS, "ops", null, RESYNC, "team", null));
            assertNotSame(own, pool.acquireOwn(CONFIG_MAPS, "ops", null, RESYNC, "other", null), "another controller's: its own");
            pool.start(shared, executor, scheduler);
            pool.start(own, executor, scheduler);
            assertEquals(2, scheduler.getQueue().size());

            pool.release(own);
            assertEquals(1, scheduler.getQueue().size(), "its resync is cancelled, the shared one's kept");
            assertEquals(List.of(shared, pool.informers().get(1)), pool.informers());
            assertEquals(2, pool.count());
            pool.release(own);
            Informer<V1ConfigMap> again = pool.acquireOwn(CONFIG_MAPS, "ops", null, RESYNC, "team", null);
            assertNotSame(own, again, "a released informer is not handed out again");
        } finally {
            pool.stopAll();
            executor.shutdownNow();
            scheduler.shutdownNow();
        }
    }
}
