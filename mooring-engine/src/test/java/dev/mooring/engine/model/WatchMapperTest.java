package dev.mooring.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Cache;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.PartialObjectMetadata;
import dev.mooring.api.Watch;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A {@code @Watch} method as a mapper: the kind it watches, its description, the primaries' cache, and what it throws. */
class WatchMapperTest {

    static class Watches {
        Object primariesSeen;

        @Watch
        Set<ObjectKey> bySecret(V1Secret secret) {
            return Set.of(new ObjectKey("ops", secret.getMetadata().getName()));
        }

        @Watch
        List<ObjectKey> withPrimaries(V1Secret secret, Cache<V1ConfigMap> primaries) {
            primariesSeen = primaries;
            return List.of();
        }

        @Watch(metadataOf = V1Secret.class)
        Set<ObjectKey> byMetadata(PartialObjectMetadata secret) {
            return Set.of();
        }

        @Watch
        Set<ObjectKey> failing(V1Secret secret) throws java.io.IOException {
            throw new java.io.IOException("the mapper's own failure");
        }
    }

    private static java.lang.reflect.Method method(String name) {
        return java.util.Arrays.stream(Watches.class.getDeclaredMethods()).filter(method -> method.getName().equals(name)).findFirst()
                .orElseThrow();
    }

    @Test
    void aWatchMethodMapsTheKindOfItsParameterAndIsNamedByItsClassAndMethod() throws Exception {
        Watches bean = new Watches();
        WatchMapper mapper = WatchMapper.of(bean, method("bySecret"));
        assertEquals(V1Secret.class, mapper.kind());
        assertEquals("Watches.bySecret", mapper.description());
        assertFalse(mapper.metadataOnly());
        assertEquals(Set.of(new ObjectKey("ops", "s")), mapper.mapper().map(new V1Secret().metadata(new V1ObjectMeta().name("s"))));
    }

    @Test
    void aMethodWithASecondParameterGetsThePrimariesCache() throws Exception {
        Watches bean = new Watches();
        Cache<?> primaries = (Cache<?>) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Cache.class},
                (proxy, method, arguments) -> null);
        WatchMapper.of(bean, method("withPrimaries")).mapper().map(new V1Secret().metadata(new V1ObjectMeta().name("s")), primaries);
        assertSame(primaries, bean.primariesSeen);
        WatchMapper.of(bean, method("bySecret")).mapper().map(new V1Secret().metadata(new V1ObjectMeta().name("s")), primaries);
    }

    @Test
    void aMetadataWatchNamesTheKindWatchedAndAMappersOwnFailureIsThrownAsItIs() {
        WatchMapper metadata = WatchMapper.of(new Watches(), method("byMetadata"));
        assertEquals(V1Secret.class, metadata.kind());
        assertTrue(metadata.metadataOnly());
        java.io.IOException thrown = assertThrows(java.io.IOException.class,
                () -> WatchMapper.of(new Watches(), method("failing")).mapper().map(new V1Secret().metadata(new V1ObjectMeta().name("s"))));
        assertEquals("the mapper's own failure", thrown.getMessage());
    }
}
