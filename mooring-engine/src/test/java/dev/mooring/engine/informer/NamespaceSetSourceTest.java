package dev.mooring.engine.informer;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.FakeSource;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A source over a namespace set: reads routed by namespace, subscriptions carried to later members, removed members silent. */
class NamespaceSetSourceTest {

    private final NamespaceSetSource<V1ConfigMap> set = new NamespaceSetSource<>(CONFIG_MAPS, null);
    private final List<String> events = new CopyOnWriteArrayList<>();

    private static V1ConfigMap map(String namespace, String name) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name).uid(namespace + "-" + name)
                .resourceVersion("1").labels(Map.of("team", namespace)));
    }

    private InformerListener<V1ConfigMap> recorder() {
        return new InformerListener<>() {
            @Override
            public void onAdd(V1ConfigMap object, boolean inInitialList) {
                events.add("add " + ObjectKey.of(object) + (inInitialList ? " (listed)" : ""));
            }

            @Override
            public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
                events.add("update " + ObjectKey.of(newObject));
            }

            @Override
            public void onDelete(V1ConfigMap object) {
                events.add("delete " + ObjectKey.of(object));
            }
        };
    }

    @Test
    void readsGoToTheMemberOfTheKeysNamespaceAndListsJoinTheMembers() {
        FakeSource<V1ConfigMap> a = new FakeSource<>(CONFIG_MAPS, "a");
        FakeSource<V1ConfigMap> b = new FakeSource<>(CONFIG_MAPS, "b");
        set.add(a);
        set.add(b);
        a.add(map("a", "x"));
        b.add(map("b", "x"));
        b.add(map("b", "y"));

        assertEquals("a", set.get(new ObjectKey("a", "x")).orElseThrow().getMetadata().getNamespace());
        assertTrue(set.cached(new ObjectKey("b", "y")).isPresent());
        assertTrue(set.get(new ObjectKey("a", "y")).isEmpty(), "y lives in b only");
        assertTrue(set.get(new ObjectKey("c", "x")).isEmpty(), "c is not in the set");
        assertEquals(new TreeSet<>(List.of("a/x", "b/x", "b/y")), keys(set.list()));
        assertTrue(set.holds("a") && set.holds("b"));
        assertFalse(set.holds("c"));
        assertEquals(Set.of("a", "b"), set.namespaces());
        assertEquals(null, set.namespace(), "not limited to one namespace");
        assertEquals("ConfigMap in namespaces [a, b]", set.describe());
    }

    @Test
    void listenersAndIndexesSubscribedBeforeReachMembersAddedAfter() {
        set.addListener(recorder());
        set.addIndex("team", "Test.team", object -> List.of(object.getMetadata().getLabels().get("team")));
        FakeSource<V1ConfigMap> a = new FakeSource<>(CONFIG_MAPS, "a");
        set.add(a);
        a.listed(map("a", "x"));
        FakeSource<V1ConfigMap> late = new FakeSource<>(CONFIG_MAPS, "late");
        set.add(late);
        late.listed(map("late", "y"));
        late.update(map("late", "y"));
        late.delete(map("late", "y"));
        late.add(map("late", "z"));

        assertEquals(List.of("add a/x (listed)", "add late/y (listed)", "update late/y", "delete late/y", "add late/z"), events);
        assertEquals(new TreeSet<>(List.of("late/z")), keys(set.indexed("team", "late")), "the index reached the later member");
        set.addIndex("team", "Test.team", object -> List.of(object.getMetadata().getLabels().get("team")));
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> set.indexed("nothing", "x"));
        assertTrue(none.getMessage().endsWith("its indexes: [team]"), "added twice, kept once: " + none.getMessage());
    }

    @Test
    void anIndexAddedAfterTheMembersReachesThemAndTheControllerIndexNeedsNone() {
        assertEquals(List.of(), set.indexed(dev.mooring.api.Cache.CONTROLLER_INDEX, "u1"), "every cache has the owners' index");
        FakeSource<V1ConfigMap> a = new FakeSource<>(CONFIG_MAPS, "a");
        set.add(a);
        a.add(map("a", "x"));
        set.addIndex("team", "Test.team", object -> List.of(object.getMetadata().getLabels().get("team")));
        assertEquals(new TreeSet<>(List.of("a/x")), keys(set.indexed("team", "a")));
    }

    @Test
    void theDescriptionNamesTheKindTheNamespacesAndTheSelectors() {
        NamespaceSetSource<V1ConfigMap> selected = new NamespaceSetSource<>(CONFIG_MAPS,
                new dev.mooring.engine.kube.Selectors("app=web", "metadata.name!=x"));
        selected.add(new FakeSource<>(CONFIG_MAPS, "b"));
        selected.add(new FakeSource<>(CONFIG_MAPS, "a"));
        assertEquals("ConfigMap in namespaces [a, b] with labels app=web, fields metadata.name!=x", selected.describe());
        assertEquals("ConfigMap in namespaces []", new NamespaceSetSource<>(CONFIG_MAPS, dev.mooring.engine.kube.Selectors.NONE).describe());
    }

    @Test
    void aRemovedMemberIsNeitherReadNorHeardAndItsObjectsAreNotDeleted() {
        set.addListener(recorder());
        FakeSource<V1ConfigMap> a = new FakeSource<>(CONFIG_MAPS, "a");
        FakeSource<V1ConfigMap> b = new FakeSource<>(CONFIG_MAPS, "b");
        set.add(a);
        set.add(b);
        a.add(map("a", "x"));
        b.add(map("b", "x"));
        events.clear();

        assertEquals(a, set.remove("a").orElseThrow());
        a.update(map("a", "x"));
        a.add(map("a", "y"));

        assertEquals(List.of(), events, "no delete for the objects left behind, nothing from the removed member");
        assertTrue(set.get(new ObjectKey("a", "x")).isEmpty());
        assertEquals(new TreeSet<>(List.of("b/x")), keys(set.list()));
        assertFalse(set.holds("a"));
        assertTrue(set.remove("a").isEmpty(), "removing again changes nothing");

        FakeSource<V1ConfigMap> again = new FakeSource<>(CONFIG_MAPS, "a");
        set.add(again);
        again.add(map("a", "z"));
        a.add(map("a", "w"));
        assertEquals(List.of("add a/z"), events, "the new member of a is heard, the old one still not");
    }

    @Test
    void syncedWhenEveryMemberIsAndFailedWhenOneFails() {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        set.onFailure(failures::add);
        assertTrue(set.hasSynced(), "an empty set has nothing to wait for");
        FakeSource<V1ConfigMap> a = new FakeSource<>(CONFIG_MAPS, "a");
        set.add(a);
        IllegalStateException forbidden = new IllegalStateException("403");
        a.failWith(forbidden);
        assertFalse(set.hasSynced());
        assertEquals(forbidden, set.failure().orElseThrow());
        assertEquals(List.of(forbidden), failures);
    }

    @Test
    void aMemberMustWatchOneNamespaceNotInTheSetYet() {
        set.add(new FakeSource<>(CONFIG_MAPS, "a"));
        assertThrows(IllegalArgumentException.class, () -> set.add(new FakeSource<>(CONFIG_MAPS, "a")));
        IllegalArgumentException everywhere = assertThrows(IllegalArgumentException.class, () -> set.add(new FakeSource<>(CONFIG_MAPS)));
        assertTrue(everywhere.getMessage().contains("ConfigMap in namespaces [a]"), everywhere.getMessage());
    }

    private static TreeSet<String> keys(List<V1ConfigMap> objects) {
        TreeSet<String> keys = new TreeSet<>();
        objects.forEach(object -> keys.add(ObjectKey.of(object).toString()));
        return keys;
    }
}
