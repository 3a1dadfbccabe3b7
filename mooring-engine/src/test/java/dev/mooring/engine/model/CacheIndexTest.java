package dev.mooring.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Index;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** An @Index method's signature and kind are checked before anything runs, naming the method. */
class CacheIndexTest {

    static class Indexes {
        @Index("app")
        Set<String> app(V1ConfigMap map) {
            return Set.of(map.getMetadata().getName());
        }

        @Index("count")
        Set<Integer> counts(V1ConfigMap map) {
            return Set.of(1);
        }

        @Index("two")
        Set<String> two(V1ConfigMap map, V1ConfigMap other) {
            return Set.of();
        }

        @Index(" ")
        Set<String> blank(V1ConfigMap map) {
            return Set.of();
        }
    }

    private static Method method(String name) {
        return java.util.Arrays.stream(Indexes.class.getDeclaredMethods()).filter(m -> m.getName().equals(name)).findFirst()
                .orElseThrow();
    }

    @Test
    void aWellFormedIndexOfAWatchedKindCallsTheMethod() {
        CacheIndex index = CacheIndex.of(new Indexes(), method("app"), List.of(V1ConfigMap.class));
        assertEquals("app", index.name());
        assertEquals("Indexes.app", index.description());
        assertEquals(Set.of("a"), Set.copyOf(index.values().apply(new V1ConfigMap().metadata(new V1ObjectMeta().name("a")))));
    }

    static class Watches {
        @dev.mooring.api.Watch
        Set<dev.mooring.api.ObjectKey> pods(V1Pod pod) {
            return Set.of();
        }

        @dev.mooring.api.Watch(metadataOf = io.kubernetes.client.openapi.models.V1Secret.class)
        Set<dev.mooring.api.ObjectKey> secrets(dev.mooring.api.PartialObjectMetadata secret) {
            return Set.of();
        }
    }

    @Test
    void theKindsCachedWholeAreThePrimaryTheOwnedAndTheWatchedNotThoseWatchedAsMetadata() {
        ControllerDefinition definition = ControllerDefinition.builder("maps", V1ConfigMap.class).namespace("ops").workers(1)
                .resync(java.time.Duration.ofMinutes(10)).syncTimeout(java.time.Duration.ofSeconds(20))
                .shutdownTimeout(java.time.Duration.ofSeconds(30)).reconcileTimeout(java.time.Duration.ofSeconds(40))
                .owns(List.of(io.kubernetes.client.openapi.models.V1Service.class)).build();
        assertEquals(List.of(V1ConfigMap.class, io.kubernetes.client.openapi.models.V1Service.class, V1Pod.class),
                CacheIndex.watchedKinds(definition, List.of(Watches.class.getDeclaredMethods()).stream()
                        .sorted(java.util.Comparator.comparing(Method::getName)).toList()));
    }

    @Test
    void aWrongSignatureABlankNameOrAnUnwatchedKindIsRefusedNamingTheMethod() {
        for (String name : List.of("counts", "two", "blank")) {
            IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class, () -> CacheIndex.indexedKind(method(name)));
            assertTrue(wrong.getMessage().contains("Indexes." + name), wrong.getMessage());
        }
        IllegalArgumentException unwatched = assertThrows(IllegalArgumentException.class,
                () -> CacheIndex.of(new Indexes(), method("app"), List.of(V1Pod.class)));
        assertTrue(unwatched.getMessage().contains("ConfigMap") && unwatched.getMessage().contains("does not watch"),
                unwatched.getMessage());
    }
}
