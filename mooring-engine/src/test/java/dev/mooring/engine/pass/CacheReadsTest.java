package dev.mooring.engine.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.api.EventType;
import dev.mooring.api.ObjectKey;
import dev.mooring.engine.FakeSource;
import dev.mooring.engine.RecordingClient;
import dev.mooring.engine.informer.InformerCache;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a pass reads from its controller's caches and queues: at most a hundred Events, only watched kinds, owned children. */
class CacheReadsTest {

    private static final ResourceType<V1ConfigMap> CONFIG_MAPS = new ResourceType<>("", "v1", "ConfigMap", "configmaps", true,
            V1ConfigMap.class);

    private static V1ConfigMap map(String name, String uid, Map<String, String> labels) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name(name).uid(uid).resourceVersion("1")
                .labels(new HashMap<>(labels))).data(new HashMap<>(Map.of("k", "v")));
    }

    @Test
    void aPassQueuesAtMostAHundredEventsAndReadsOnlyTheKindsItWatches() {
        ReconcileContext<V1ConfigMap> context = new ReconcileContext<>(new ControllerView("maps",
                new ControllerCaches("maps").watched(V1ConfigMap.class, new InformerCache<>(new FakeSource<>(CONFIG_MAPS))),
                key -> { }, Clock.systemUTC(), Set.of()), new ObjectKey("ops", "a"), map("a", "u1", Map.of()), new RecordingClient());
        for (int i = 0; i < 150; i++) {
            context.event(EventType.NORMAL, "Step", "step " + i);
        }
        assertEquals(100, context.queuedEvents().size());
        assertEquals("step 99", context.queuedEvents().get(99).note());

        IllegalArgumentException unwatched = assertThrows(IllegalArgumentException.class, () -> context.cached(V1Secret.class));
        assertEquals("V1Secret is not watched by controller maps; declare it with @Controller(owns = ...) or a @Watch method",
                unwatched.getMessage());
    }

    @Test
    void theOwnedChildrenOfAnObjectAreTheCachedOnesItControls() {
        V1ConfigMap owner = map("owner", "u-owner", Map.of());
        owner.apiVersion("v1").kind("ConfigMap");
        FakeSource<V1ConfigMap> children = new FakeSource<>(CONFIG_MAPS);
        V1ConfigMap mine = map("mine", "u1", Map.of());
        mine.getMetadata().setOwnerReferences(List.of(dev.mooring.api.OwnerReferences.controllerOf(owner)));
        V1ConfigMap ofAnother = map("another", "u2", Map.of());
        ofAnother.getMetadata().setOwnerReferences(List.of(dev.mooring.api.OwnerReferences.controllerOf(map("owner", "u-old", Map.of())
                .apiVersion("v1").kind("ConfigMap"))));
        children.add(mine);
        children.add(ofAnother);
        children.add(map("loose", "u3", Map.of()));
        ReconcileContext<V1ConfigMap> context = new ReconcileContext<>(new ControllerView("maps",
                new ControllerCaches("maps").watched(V1ConfigMap.class, new InformerCache<>(children)), key -> { },
                Clock.systemUTC(), Set.of()), new ObjectKey("ops", "owner"), owner, new RecordingClient());

        assertEquals(List.of("mine"), context.owned(V1ConfigMap.class).stream().map(m -> m.getMetadata().getName()).toList());
        assertThrows(IllegalArgumentException.class, () -> context.owned(V1Secret.class));
    }
}
