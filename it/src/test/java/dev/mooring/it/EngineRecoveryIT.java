package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Context;
import dev.mooring.api.ObjectKey;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.test.Eventually;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Watches that break: the API server restarts, and etcd's history is compacted (410 Gone). Every
 * change made meanwhile is reconciled afterwards, and side effects are not repeated.
 */
class EngineRecoveryIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    /** Creates a child ConfigMap once per source and remembers what the cache held at each pass. */
    static final class ChildMaker extends Recorder {
        final AtomicInteger creates = new AtomicInteger();
        final Map<ObjectKey, Set<String>> cacheAtPass = new ConcurrentHashMap<>();

        @Override
        void act(V1ConfigMap resource, Context<V1ConfigMap> context) {
            if (resource.getMetadata().getName().endsWith("-child")) {
                return;
            }
            cacheAtPass.put(context.key(), context.cached(V1ConfigMap.class).list(context.key().namespace()).stream()
                    .map(cm -> cm.getMetadata().getName()).collect(Collectors.toSet()));
            String child = resource.getMetadata().getName() + "-child";
            if (context.client().get(V1ConfigMap.class, null, child).isEmpty()) {
                context.client().create(new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                        .metadata(new V1ObjectMeta().name(child)).data(Map.of("of", resource.getMetadata().getName())));
                creates.incrementAndGet();
            }
        }
    }

    @Test
    void changesWhileTheApiServerWasDownAreReconciledAfterItsRestart() throws Exception {
        runScenario(false);
    }

    @Test
    void expiredWatchHistoryLeadsToARelistThatMissesNothing() throws Exception {
        runScenario(true);
    }

    /**
     * After an outage of the API server, the first write comes within seconds of its return,
     * however long the outage was (the reconnect delay is capped short and starts again after
     * every success); during it, the informer reports itself disconnected with the cause.
     */
    @Test
    void afterAnOutageTheFirstWriteComesSoonAfterTheServerIsBack() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "outage");
        ChildMaker maker = new ChildMaker();
        ControllerDefinition definition = Engine.definition("outage", V1ConfigMap.class, namespace, null, 1, List.of(), List.of());
        try (Engine engine = new Engine(Testbed.client(), Testbed.client().setReadTimeout(5_000),
                List.of(new dev.mooring.engine.OperatorRuntime.Entry(definition, maker)), "default",
                new dev.mooring.engine.OperatorRuntime.Retry(Duration.ofSeconds(1), Duration.ofSeconds(60)))) {
            engine.awaitReady();
            create(core, namespace, "before", Map.of("v", "1"));
            Eventually.await("before's child", TIMEOUT, () -> maker.creates.get() == 1);
            var informer = engine.runtime.informers().get(0);
            String port = Testbed.env().getProperty("TESTBED_PORT");
            Testbed.stop();
            Eventually.await("the informer disconnected, with the cause", Duration.ofSeconds(30), () -> !informer.connected()
                    && informer.lastProblem() != null && informer.lastProblem().contains("ConnectException"));
            Thread.sleep(Duration.ofSeconds(15).toMillis());
            Testbed.restart(port);
            long back = System.nanoTime();
            create(core, namespace, "after", Map.of("v", "1"));
            Eventually.await("after's child", TIMEOUT, () -> maker.creates.get() == 2);
            Duration firstWrite = Duration.ofNanos(System.nanoTime() - back);
            // the bound: the reconnect cap (4 s, jittered) and a pass, not a share of the 15 s outage
            assertTrue(firstWrite.compareTo(Duration.ofSeconds(8)) < 0, "the first write came " + firstWrite
                    + " after the API server was back from a 15 s outage");
            assertTrue(informer.connected());
        }
    }

    private void runScenario(boolean compact) throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, compact ? "gone" : "restart");
        ChildMaker maker = new ChildMaker();
        ControllerDefinition definition = Engine.definition("recovery", V1ConfigMap.class, namespace, null, 2,
                List.of(), List.of());
        try (Engine engine = Engine.of(definition, maker)) {
            engine.awaitReady();
            for (String name : List.of("a", "b", "c")) {
                create(core, namespace, name, Map.of("v", "1"));
            }
            Eventually.await("three children", TIMEOUT, () -> maker.creates.get() == 3);

            if (compact) {
                // Advance etcd's revision where this informer does not look, then compact it: the
                // informer's last resourceVersion is now older than the kept history, so resuming
                // its watch after the restart gets 410 Gone.
                String elsewhere = Testbed.createNamespace(core, "noise");
                create(core, elsewhere, "noise", Map.of("v", "1"));
                Testbed.compactEtcd();
            }
            String port = Testbed.env().getProperty("TESTBED_PORT");
            Testbed.stop();
            Testbed.restart(port);
            // Made right after the restart, while the informer's watch is broken and backing off.
            patch(core, namespace, "a", "[{\"op\":\"replace\",\"path\":\"/data/v\",\"value\":\"2\"}]");
            core.deleteNamespacedConfigMap("b", namespace).execute();
            create(core, namespace, "d", Map.of("v", "1"));
            create(core, namespace, "z", Map.of("v", "1"));

            ObjectKey a = new ObjectKey(namespace, "a");
            ObjectKey z = new ObjectKey(namespace, "z");
            Eventually.await("a's update reconciled", TIMEOUT, () -> maker.lastData(a), data -> data != null && "2".equals(data.get("v")));
            // the pass is recorded before act() notes the cache, so wait for the note itself
            Eventually.await("z reconciled", TIMEOUT, () -> maker.cacheAtPass.containsKey(z));
            Set<String> cached = maker.cacheAtPass.get(z);
            assertTrue(cached.contains("d") && !cached.contains("b"),
                    "the cache at z's pass missed a change made while disconnected: " + cached);
            Eventually.await("children of d and z", TIMEOUT, () -> maker.creates.get() == 5);

            ControllerStatus status = engine.runtime.statuses().get(0);
            assertEquals(0, status.errors(), "a pass failed (a duplicate create would conflict)");
            assertEquals(0, maker.overlaps.get());
            assertEquals(5, maker.creates.get(), "each source's child is created exactly once");
            if (compact) {
                assertTrue(engine.runtime.relists() >= 1, "the expired history did not cause a relist");
            }
        }
    }

    private static void create(CoreV1Api core, String namespace, String name, Map<String, String> data) throws ApiException {
        core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(data)).execute();
    }

    private static void patch(CoreV1Api core, String namespace, String name, String jsonPatch) throws ApiException {
        PatchUtils.patch(V1ConfigMap.class, () -> core.patchNamespacedConfigMap(name, namespace, new V1Patch(jsonPatch))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_PATCH, core.getApiClient());
    }
}
