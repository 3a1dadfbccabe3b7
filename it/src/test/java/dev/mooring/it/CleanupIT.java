package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Cleanup;
import dev.mooring.api.Context;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A declared cleanup: the finalizer is persisted before reconcile, and deletion waits for a successful cleanup. */
class CleanupIT {

    private static final String FINALIZER = "example.com/cleanup";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    static final class ExternalThing implements Reconciler<V1ConfigMap>, Cleanup<V1ConfigMap> {
        final List<Boolean> finalizerPresentAtReconcile = new CopyOnWriteArrayList<>();
        final AtomicInteger cleanupAttempts = new AtomicInteger();
        final AtomicInteger cleanups = new AtomicInteger();

        @Override
        public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
            List<String> finalizers = resource.getMetadata().getFinalizers();
            finalizerPresentAtReconcile.add(finalizers != null && finalizers.contains(FINALIZER));
            return Result.done();
        }

        @Override
        public void cleanup(V1ConfigMap resource, Context<V1ConfigMap> context) {
            if (cleanupAttempts.incrementAndGet() <= 2) {
                throw new IllegalStateException("the external system is unavailable (attempt " + cleanupAttempts.get() + ")");
            }
            cleanups.incrementAndGet();
        }
    }

    @Test
    void deletionWaitsForASuccessfulCleanup() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "cleanup");
        ExternalThing thing = new ExternalThing();
        try (Engine engine = Engine.of(Engine.definition("cleanup", V1ConfigMap.class, namespace, null, 1, List.of(),
                List.of(), FINALIZER), thing)) {
            engine.awaitReady();
            core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("thing"))
                    .data(Map.of("k", "v"))).execute();
            Eventually.await("the first reconcile", TIMEOUT, () -> !thing.finalizerPresentAtReconcile.isEmpty());
            assertEquals(List.of(true), thing.finalizerPresentAtReconcile.subList(0, 1), "reconcile ran before the finalizer was persisted");
            assertTrue(read(core, namespace).getMetadata().getFinalizers().contains(FINALIZER));

            core.deleteNamespacedConfigMap("thing", namespace).execute();
            Eventually.await("a failed cleanup attempt", TIMEOUT, () -> thing.cleanupAttempts.get() >= 1);
            V1ConfigMap blocked = read(core, namespace);
            assertNotNull(blocked, "the object vanished although its cleanup failed");
            assertNotNull(blocked.getMetadata().getDeletionTimestamp());

            Eventually.await("the object gone after the third cleanup attempt", TIMEOUT, () -> {
                try {
                    return read(core, namespace) == null;
                } catch (ApiException e) {
                    return false;
                }
            });
            assertEquals(3, thing.cleanupAttempts.get());
            assertEquals(1, thing.cleanups.get());
            ControllerStatus status = engine.runtime.statuses().get(0);
            assertEquals(2, status.errors(), "the two failed cleanups are retried errors");
            assertTrue(thing.finalizerPresentAtReconcile.stream().allMatch(Boolean::booleanValue));
        }
    }

    private static V1ConfigMap read(CoreV1Api core, String namespace) throws ApiException {
        try {
            return core.readNamespacedConfigMap("thing", namespace).execute();
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return null;
            }
            throw e;
        }
    }
}
