package dev.mooring.engine.pass;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static dev.mooring.engine.TestKinds.configMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.api.EventType;
import dev.mooring.api.ObjectKey;
import dev.mooring.engine.FakeSource;
import dev.mooring.engine.RecordingClient;
import dev.mooring.engine.informer.InformerCache;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a pass reads from its controller's caches and queues: at most a hundred Events, only watched kinds, owned children. */
class CacheReadsTest {


    @Test
    void aPassQueuesAtMostAHundredEventsAndReadsOnlyTheKindsItWatches() {
        ReconcileContext<V1ConfigMap> context = new ReconcileContext<>(new ControllerView("maps",
                new ControllerCaches("maps").watched(V1ConfigMap.class, new InformerCache<>(new FakeSource<>(CONFIG_MAPS))),
                key -> { }, Clock.systemUTC(), Set.of(), new StatusWrites()), new ObjectKey("ops", "a"), configMap("a", "u1", Map.of()), new RecordingClient());
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
        V1ConfigMap owner = configMap("owner", "u-owner", Map.of());
        owner.apiVersion("v1").kind("ConfigMap");
        FakeSource<V1ConfigMap> children = new FakeSource<>(CONFIG_MAPS);
        V1ConfigMap mine = configMap("mine", "u1", Map.of());
        mine.getMetadata().setOwnerReferences(List.of(dev.mooring.api.OwnerReferences.controllerOf(owner)));
        V1ConfigMap ofAnother = configMap("another", "u2", Map.of());
        ofAnother.getMetadata().setOwnerReferences(List.of(dev.mooring.api.OwnerReferences.controllerOf(configMap("owner", "u-old", Map.of())
                .apiVersion("v1").kind("ConfigMap"))));
        children.add(mine);
        children.add(ofAnother);
        children.add(configMap("loose", "u3", Map.of()));
        ReconcileContext<V1ConfigMap> context = new ReconcileContext<>(new ControllerView("maps",
                new ControllerCaches("maps").watched(V1ConfigMap.class, new InformerCache<>(children)), key -> { },
                Clock.systemUTC(), Set.of(), new StatusWrites()), new ObjectKey("ops", "owner"), owner, new RecordingClient());

        assertEquals(List.of("mine"), context.owned(V1ConfigMap.class).stream().map(m -> m.getMetadata().getName()).toList());
        assertThrows(IllegalArgumentException.class, () -> context.owned(V1Secret.class));
    }
}
