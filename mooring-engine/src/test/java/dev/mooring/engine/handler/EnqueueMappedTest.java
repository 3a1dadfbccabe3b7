package dev.mooring.engine.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.model.WatchMapper;
import dev.mooring.engine.queue.Priority;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link EnqueueMapped} and {@link MapperKeys}: which keys a watched object's events enqueue, with which priority, and
 * nothing once the controller stopped or when the mapping fails.
 */
class EnqueueMappedTest {

    private final List<String> queued = new ArrayList<>();
    private final List<Throwable> failures = new ArrayList<>();
    private final AtomicBoolean active = new AtomicBoolean(true);

    /** Maps a ConfigMap to the primary its "for" data names; a "fail" value fails the mapping. */
    private EnqueueMapped<V1ConfigMap> handler() {
        KeyMapping<V1ConfigMap> mapping = (map, deleted) -> {
            String target = map.getData().get("for");
            if (target.equals("fail")) {
                throw new IllegalArgumentException("no such primary");
            }
            return List.of(new ObjectKey("ops", target + (deleted ? "-deleted" : "")));
        };
        return new EnqueueMapped<>(mapping, "Widgets.settings", "ConfigMap", (key, priority) -> queued.add(key.name() + " " + priority),
                active::get, failures::add);
    }

    private static V1ConfigMap map(String target, String version) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name("settings").resourceVersion(version))
                .data(Map.of("for", target));
    }

    @Test
    void anUpdateEnqueuesThePrimariesOfTheOldAndTheNewStateOnce() {
        EnqueueMapped<V1ConfigMap> handler = handler();
        handler.onAdd(map("a", "1"), true);
        handler.onAdd(map("a", "1"), false);
        handler.onUpdate(map("a", "1"), map("b", "2"));
        handler.onUpdate(map("b", "2"), map("b", "3"));
        V1ConfigMap same = map("c", "4");
        handler.onUpdate(same, same);
        handler.onDelete(map("d", "5"));
        assertEquals(List.of("a LOW", "a NORMAL", "a NORMAL", "b NORMAL", "b NORMAL", "c LOW", "d-deleted NORMAL"), queued);
        assertEquals(List.of(), failures);
    }

    @Test
    void nothingIsMappedOnceTheControllerIsInactive() {
        EnqueueMapped<V1ConfigMap> handler = handler();
        active.set(false);
        handler.onAdd(map("fail", "1"), false);
        handler.onUpdate(map("a", "1"), map("fail", "2"));
        handler.onDelete(map("a", "3"));
        assertEquals(List.of(), queued);
        assertEquals(List.of(), failures, "not even a failing mapping is called");
    }

    @Test
    void aFailingMappingEnqueuesNothingAndReportsItself() {
        EnqueueMapped<V1ConfigMap> handler = handler();
        handler.onUpdate(map("a", "1"), map("fail", "2"));
        assertEquals(List.of(), queued, "not even the old state's key");
        assertEquals(1, failures.size());
        assertEquals("Watch mapping of ConfigMap ops/settings by Widgets.settings failed: java.lang.IllegalArgumentException:"
                + " no such primary", failures.get(0).getMessage());
    }

    @Test
    void anAuthorsMapperReturnsObjectKeysOrNothing() throws Exception {
        assertEquals(List.of(new ObjectKey("ops", "a")), keys(object -> List.of(new ObjectKey("ops", "a"))));
        assertEquals(List.of(), keys(object -> null), "null is no keys");
        IllegalStateException text = assertThrows(IllegalStateException.class, () -> keys(object -> List.of("ops/a")));
        assertEquals("returned java.lang.String instead of ObjectKey values", text.getMessage());
        List<Object> withNull = new ArrayList<>();
        withNull.add(new ObjectKey("ops", "a"));
        withNull.add(null);
        assertTrue(assertThrows(IllegalStateException.class, () -> keys(object -> withNull)).getMessage()
                .startsWith("returned null instead"));
    }

    private static java.util.Collection<ObjectKey> keys(WatchMapper.Mapping mapping) throws Exception {
        return new MapperKeys<V1ConfigMap>(new WatchMapper(V1ConfigMap.class, "Widgets.settings", mapping), null)
                .keys(map("a", "1"), false);
    }
}
