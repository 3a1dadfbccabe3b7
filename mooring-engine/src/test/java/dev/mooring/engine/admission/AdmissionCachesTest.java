package dev.mooring.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.FakeSource;
import dev.mooring.engine.kube.Kinds;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What admission requests read: a declared cache is pending, then serves; an undeclared one is the author's mistake. */
class AdmissionCachesTest {

    static class Policy {
    }

    private final AdmissionCaches caches = new AdmissionCaches(namespace -> {
        throw new UnsupportedOperationException("no live reads here");
    });

    @Test
    void aDeclaredCacheIsPendingUntilItsSourceStartsThenServesWhenSynced() {
        caches.declare(Policy.class, V1Namespace.class);
        Map<String, String> details = new LinkedHashMap<>();
        assertFalse(caches.serving(details));
        assertEquals(Map.of("cache Namespace", "waiting for discovery"), details);
        assertEquals("The admission cache of V1Namespace has not started: waiting for discovery",
                assertThrows(IllegalStateException.class, () -> caches.cached(Policy.class, V1Namespace.class)).getMessage());

        FakeSource<V1Namespace> namespaces = new FakeSource<>(Kinds.offline().resolve(V1Namespace.class));
        namespaces.add(new V1Namespace().metadata(new V1ObjectMeta().name("frozen")));
        caches.started(Policy.class, V1Namespace.class, namespaces);
        details.clear();
        assertTrue(caches.serving(details), details.toString());
        assertEquals("frozen", caches.cached(Policy.class, V1Namespace.class).get(null, "frozen").orElseThrow()
                .getMetadata().getName());

        namespaces.failWith(new IllegalStateException("403 on the watch"));
        assertFalse(caches.serving(details));
        assertEquals("failed: 403 on the watch", details.get("cache Namespace"));
    }

    @Test
    void aCacheTheBeanDidNotDeclareIsRefusedWithTheFix() {
        assertEquals("Policy reads V1Namespace from a cache it did not declare: add it to @AdmissionCache on the bean",
                assertThrows(IllegalArgumentException.class, () -> caches.cached(Policy.class, V1Namespace.class)).getMessage());
    }
}
