package dev.mooring.engine.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The informer's cache: what each change tells the listeners, and that an index follows every change. */
class InformerStoreTest {

    private final InformerStore<V1ConfigMap> store = new InformerStore<>();
    private final List<String> told = new CopyOnWriteArrayList<>();

    InformerStoreTest() {
        store.addIndex("by-tier", "the test", map -> List.of(map.getMetadata().getLabels().get("tier")));
        store.addListener(new InformerListener<>() {
            @Override
            public void onAdd(V1ConfigMap object, boolean inInitialList) {
                told.add((inInitialList ? "listed " : "added ") + describe(object));
            }

            @Override
            public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
                told.add("updated " + describe(oldObject) + " -> " + describe(newObject));
            }

            @Override
            public void onDelete(V1ConfigMap object) {
                told.add("deleted " + describe(object));
            }
        });
    }

    private static String describe(V1ConfigMap map) {
        return map.getMetadata().getName() + "@" + map.getMetadata().getLabels().get("tier");
    }

    private static V1ConfigMap map(String name, String uid, String tier) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name(name).uid(uid).resourceVersion("1")
                .labels(Map.of("tier", tier)));
    }

    private List<String> tier(String tier) {
        return store.indexed("by-tier", tier).stream().map(map -> map.getMetadata().getName()).sorted().toList();
    }

    @Test
    void watchedChangesAreToldAndIndexedAndADeletedKeyLeavesItsIndexEntry() {
        store.put(map("a", "u1", "web"));
        store.put(map("a", "u1", "db"));
        assertEquals(List.of(), tier("web"), "the update moved a out of web");
        assertEquals(List.of("a"), tier("db"));
        store.remove(map("a", "u1", "stale"));
        store.put(map("a", "u2", "cache"));
        assertEquals(List.of(), tier("db"), "a deleted object is not found under its old value, even when its key comes back");
        assertEquals(List.of("added a@web", "updated a@web -> a@db", "deleted a@db", "added a@cache"), told,
                "a delete tells the cached state, not the watch event's");
    }

    @Test
    void anInitialListIsIndexedAtOnceAndToldOnlyWhenAnnouncedAndAFailedOneLeavesNothing() {
        store.fill(map("a", "u1", "web"));
        assertEquals(List.of("a"), tier("web"), "indexed while the list streams in");
        assertEquals(List.of(), told);
        store.clearUnannounced();
        store.fill(map("a", "u1", "db"));
        assertEquals(List.of(), tier("web"), "the failed attempt's entry is gone");
        store.announceInitial();
        assertEquals(List.of("listed a@db"), told);
    }

    @Test
    void aRelistStoresEverythingThenTellsDeletesAddsAndUpdatesWithTheIndexFollowing() {
        store.put(map("a", "u1", "web"));
        store.put(map("b", "u2", "web"));
        store.put(map("c", "u3", "web"));
        told.clear();
        Map<ObjectKey, V1ConfigMap> listed = new LinkedHashMap<>();
        listed.put(new ObjectKey("ops", "a"), map("a", "u1", "db"));
        listed.put(new ObjectKey("ops", "c"), map("c", "u9", "web")); // replaced under the same name
        listed.put(new ObjectKey("ops", "d"), map("d", "u4", "db"));
        store.replace(listed);
        assertEquals(List.of("c"), tier("web"));
        assertEquals(List.of("a", "d"), tier("db"));
        assertEquals(5, told.size(), told.toString());
        assertEquals(List.of("deleted b@web", "deleted c@web"), told.subList(0, 2).stream().sorted().toList(), "deletes first");
        assertEquals(List.of("added c@web", "added d@db", "updated a@web -> a@db"), told.subList(2, 5).stream().sorted().toList());
    }

    @Test
    void aResyncTellsEveryObjectAsAnUpdateToItself() {
        store.put(map("a", "u1", "web"));
        told.clear();
        store.resync();
        assertEquals(List.of("updated a@web -> a@web"), told);
        assertEquals(1, store.size());
    }
}
