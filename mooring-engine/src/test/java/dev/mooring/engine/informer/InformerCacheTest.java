package dev.mooring.engine.informer;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static dev.mooring.engine.TestKinds.configMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.FakeSource;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a controller reads from an informer's cache: copies, label matching, namespaces, sync, replaced objects. */
class InformerCacheTest {


    @Test
    void aCacheReadIsACopyThatChangesNothingInTheCache() {
        InformerStore<V1ConfigMap> store = new InformerStore<>();
        store.put(configMap("a", "u1", Map.of()));

        store.get(new ObjectKey("ops", "a")).orElseThrow().getData().put("k", "changed by a reconciler");
        store.list().get(0).getMetadata().getLabels().put("x", "y");

        assertEquals("v", store.cached(new ObjectKey("ops", "a")).orElseThrow().getData().get("k"));
        assertTrue(store.cached(new ObjectKey("ops", "a")).orElseThrow().getMetadata().getLabels().isEmpty());
    }

    @Test
    void eachReadOfAPassWaitsForTheRuntimesPendingWritesOfWhatItReads() {
        FakeSource<V1ConfigMap> source = new FakeSource<>(CONFIG_MAPS);
        source.listed(configMap("a", "u1", Map.of()));
        WrittenVersions written = new WrittenVersions(List::of);
        written.record(WrittenVersions.kindKey("", "ConfigMap"), new WrittenVersions.Write(new ObjectKey("ops", "a"), 8, null, "u-owner",
                System.nanoTime()));
        List<String> waits = new java.util.concurrent.CopyOnWriteArrayList<>();
        InformerCache<V1ConfigMap> cache = new InformerCache<>(source, new ReadYourWrites(written,
                new ReadYourWrites.Settings(true, java.time.Duration.ofMillis(20)), (controller, caughtUp) -> waits.add(controller)), "pass");
        assertTrue(cache.get("ops", "a").isPresent());
        cache.list("ops");
        cache.list("ops", Map.of("x", "y"));
        cache.listAll();
        cache.indexed(dev.mooring.api.Cache.CONTROLLER_INDEX, "u-owner");
        assertEquals(5, waits.size(), "every read waited for version 8: " + waits);
        assertEquals(List.of("pass"), List.copyOf(new java.util.HashSet<>(waits)), "counted for the reader");
        assertEquals(List.of("a"), cache.list("ops").stream().map(map -> map.getMetadata().getName()).toList(),
                "and then reads what is cached");
        V1ConfigMap child = configMap("child", "u2", Map.of());
        child.getMetadata().addOwnerReferencesItem(new io.kubernetes.client.openapi.models.V1OwnerReference().apiVersion("v1").kind("Secret")
                .name("owner").uid("u-owner").controller(true));
        source.add(child);
        assertEquals(List.of("child"), cache.indexed(dev.mooring.api.Cache.CONTROLLER_INDEX, "u-owner").stream()
                .map(map -> map.getMetadata().getName()).toList());
    }

    @Test
    void aNamespacedReadWithoutANamespaceIsRefusedNamingTheKind() {
        FakeSource<V1ConfigMap> source = new FakeSource<>(CONFIG_MAPS);
        source.add(configMap("a", "u1", Map.of()));
        InformerCache<V1ConfigMap> cache = new InformerCache<>(source);
        for (String namespace : new String[] {null, " "}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> cache.get(namespace, "a"));
            assertTrue(refused.getMessage().contains("ConfigMap is namespaced"), refused.getMessage());
        }
        assertTrue(cache.get("ops", "a").isPresent());
    }

    @Test
    void aReadOutsideTheWatchedNamespaceIsRefusedNotAnsweredEmpty() {
        FakeSource<V1ConfigMap> source = new FakeSource<>(CONFIG_MAPS, "ops");
        source.add(configMap("a", "u1", Map.of("app", "web")));
        InformerCache<V1ConfigMap> cache = new InformerCache<>(source);
        for (org.junit.jupiter.api.function.Executable read : List.<org.junit.jupiter.api.function.Executable>of(
                () -> cache.get("other", "a"), () -> cache.list("other"), () -> cache.list("other", Map.of("app", "web")))) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, read);
            assertTrue(refused.getMessage().contains("does not hold namespace other"), refused.getMessage());
        }
        assertTrue(cache.get("ops", "a").isPresent());
        assertEquals(1, cache.list("ops", Map.of("app", "web")).size());

        InformerCache<V1ConfigMap> everywhere = new InformerCache<>(new FakeSource<>(CONFIG_MAPS));
        assertTrue(everywhere.get("other", "a").isEmpty(), "a cache of every namespace answers for any");
        assertTrue(everywhere.list("other").isEmpty());
    }

    @Test
    void anObjectReplacedBetweenTwoListsIsADeleteThenAnAddNotAnUpdate() {
        InformerStore<V1ConfigMap> store = new InformerStore<>();
        List<String> heard = new ArrayList<>();
        store.addListener(new InformerListener<>() {
            @Override
            public void onAdd(V1ConfigMap object, boolean inInitialList) {
                heard.add("add " + object.getMetadata().getUid());
            }

            @Override
            public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
                heard.add("update " + newObject.getMetadata().getUid());
            }

            @Override
            public void onDelete(V1ConfigMap object) {
                heard.add("delete " + object.getMetadata().getUid());
            }
        });
        store.replace(Map.of(new ObjectKey("ops", "a"), configMap("a", "u1", Map.of())));
        heard.clear();

        store.replace(Map.of(new ObjectKey("ops", "a"), configMap("a", "u2", Map.of())));

        assertEquals(List.of("delete u1", "add u2"), heard);
    }

    @Test
    void labelsSelectByAndAndAReadBeforeTheInitialListIsRefused() {
        FakeSource<V1ConfigMap> source = new FakeSource<>(CONFIG_MAPS);
        source.add(configMap("both", "u1", Map.of("app", "web", "tier", "front")));
        source.add(configMap("one", "u2", Map.of("app", "web")));
        InformerCache<V1ConfigMap> cache = new InformerCache<>(source);

        assertEquals(List.of("both"), cache.list("ops", Map.of("app", "web", "tier", "front")).stream()
                .map(m -> m.getMetadata().getName()).toList(), "every label must match");
        assertEquals(2, cache.list("ops", Map.of("app", "web")).size());

        KubeHttp unused = new KubeHttp(new ApiClient());
        Informer<V1ConfigMap> notRun = new Informer<>(unused, unused, CONFIG_MAPS, "ops", null, Duration.ofSeconds(1));
        InformerCache<V1ConfigMap> early = new InformerCache<>(notRun);
        for (org.junit.jupiter.api.function.Executable read : List.<org.junit.jupiter.api.function.Executable>of(() -> early.list("ops"),
                () -> early.get("ops", "both"), () -> early.list("ops", Map.of("app", "web")), early::listAll,
                () -> early.indexed("team", "blue"))) {
            assertEquals("The cache of ConfigMap in ops has not synced yet", assertThrows(IllegalStateException.class, read).getMessage(),
                    "every read before the initial list is refused, a single get included");
        }
    }

    @Test
    void aCacheOfEveryNamespaceListsOneNamespaceOrAllAndAFailedCacheSaysWhy() {
        FakeSource<V1ConfigMap> source = new FakeSource<>(CONFIG_MAPS);
        source.add(configMap("a", "u1", Map.of()));
        V1ConfigMap elsewhere = configMap("b", "u2", Map.of());
        elsewhere.getMetadata().setNamespace("shop");
        source.add(elsewhere);
        InformerCache<V1ConfigMap> cache = new InformerCache<>(source);
        assertEquals(List.of("a"), cache.list("ops").stream().map(m -> m.getMetadata().getName()).toList());
        assertEquals(List.of("a", "b"), cache.listAll().stream().map(m -> m.getMetadata().getName()).sorted().toList());

        source.failWith(new IllegalStateException("403 on the watch"));
        assertEquals("The cache of " + source.describe() + " failed: 403 on the watch",
                assertThrows(IllegalStateException.class, cache::listAll).getMessage());
    }
}
