package dev.mooring.engine.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Cache;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.OwnerReferences;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The indexes of an informer's store: kept through adds, updates, deletes and relists; the controller index built in. */
class CacheIndexesTest {

    private static final Function<V1ConfigMap, java.util.Collection<String>> BY_TEAM = map ->
            map.getData() == null || map.getData().get("team") == null ? null : List.of(map.getData().get("team").split(","));

    private static V1ConfigMap map(String name, String uid, String team) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name(name).uid(uid).resourceVersion("1"))
                .data(team == null ? null : new HashMap<>(Map.of("team", team)));
    }

    private static Set<String> names(List<V1ConfigMap> maps) {
        return maps.stream().map(map -> map.getMetadata().getName()).collect(java.util.stream.Collectors.toSet());
    }

    @Test
    void anIndexFollowsEveryChangeAndIsFilledFromWhatIsCachedWhenAdded() {
        InformerStore<V1ConfigMap> store = new InformerStore<>();
        store.put(map("a", "u1", "red"));
        store.addIndex("team", "Test.byTeam", BY_TEAM);
        store.put(map("b", "u2", "red,blue"));
        assertEquals(Set.of("a", "b"), names(store.indexed("team", "red")));
        assertEquals(Set.of("b"), names(store.indexed("team", "blue")));

        store.put(map("a", "u1", "blue")); // moves from red to blue
        assertEquals(Set.of("b"), names(store.indexed("team", "red")));
        assertEquals(Set.of("a", "b"), names(store.indexed("team", "blue")));

        store.remove(map("b", "u2", null)); // a delete carries the cached state's values away
        assertEquals(Set.of(), names(store.indexed("team", "red")));
        assertEquals(Set.of("a"), names(store.indexed("team", "blue")));

        store.replace(Map.of(new ObjectKey("ops", "c"), map("c", "u3", "red"))); // a relist: a gone, c new
        assertEquals(Set.of("c"), names(store.indexed("team", "red")));
        assertEquals(Set.of(), names(store.indexed("team", "blue")));
        assertEquals(Set.of(), names(store.indexed("team", "green")), "a value nothing is under");
    }

    @Test
    void indexedReadsAreCopies() {
        InformerStore<V1ConfigMap> store = new InformerStore<>();
        store.addIndex("team", "Test.byTeam", BY_TEAM);
        store.put(map("a", "u1", "red"));
        store.indexed("team", "red").get(0).getData().put("team", "changed by a reconciler");
        assertEquals("red", store.cached(new ObjectKey("ops", "a")).orElseThrow().getData().get("team"));
    }

    @Test
    void everyCacheIndexesTheControllerReferenceByUid() {
        InformerStore<V1ConfigMap> store = new InformerStore<>();
        V1ConfigMap owner = map("owner", "owner-uid", null).apiVersion("v1").kind("ConfigMap");
        V1ConfigMap child = map("child", "u2", null);
        child.getMetadata().addOwnerReferencesItem(OwnerReferences.controllerOf(owner));
        V1ConfigMap notControlled = map("other", "u3", null);
        notControlled.getMetadata().addOwnerReferencesItem(OwnerReferences.controllerOf(owner).controller(false));
        store.put(child);
        store.put(notControlled);
        assertEquals(Set.of("child"), names(store.indexed(Cache.CONTROLLER_INDEX, "owner-uid")));
        V1ConfigMap noUid = map("no-uid", "u4", null); // a reference the API server would refuse, as an informer may still see it
        noUid.getMetadata().addOwnerReferencesItem(OwnerReferences.controllerOf(owner).uid(null));
        store.put(noUid);
        assertEquals(Set.of("child"), names(store.indexed(Cache.CONTROLLER_INDEX, "owner-uid")));
    }

    @Test
    void aSecondDeclarationOfANameIsRefusedNamingBothAndTheSameOneAgainIsKept() {
        InformerStore<V1ConfigMap> store = new InformerStore<>();
        store.addIndex("team", "A.byTeam", BY_TEAM);
        store.addIndex("team", "A.byTeam", map -> List.of("ignored")); // wired again after a restart: the first is kept
        store.put(map("a", "u1", "red"));
        assertEquals(Set.of("a"), names(store.indexed("team", "red")));

        IllegalStateException clash = assertThrows(IllegalStateException.class, () -> store.addIndex("team", "B.team", BY_TEAM));
        assertTrue(clash.getMessage().contains("A.byTeam") && clash.getMessage().contains("B.team"), clash.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> store.indexed("teams", "red"));
        assertTrue(unknown.getMessage().contains("teams") && unknown.getMessage().contains("team"), unknown.getMessage());
    }

    @Test
    void anIndexThatThrowsLeavesThatObjectOutAndKeepsTheOthers() {
        InformerStore<V1ConfigMap> store = new InformerStore<>();
        store.addIndex("team", "Test.fragile", map -> {
            if (map.getMetadata().getName().equals("bad")) {
                throw new IllegalStateException("cannot index");
            }
            return BY_TEAM.apply(map);
        });
        store.put(map("bad", "u1", "red"));
        store.put(map("good", "u2", "red"));
        assertEquals(Set.of("good"), names(store.indexed("team", "red")));
        assertEquals(2, store.size(), "the object is cached all the same");
    }
}
