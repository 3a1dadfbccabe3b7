package dev.mooring.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A definition's copies each change one part and keep the others; the namespace and the transform of a kind. */
class ControllerDefinitionTest {

    private static ControllerDefinition in(String namespace) {
        return new ControllerDefinition("maps", V1ConfigMap.class, namespace, "app=web", 3, Duration.ofMinutes(10), Duration.ofSeconds(20),
                Duration.ofSeconds(30), Duration.ofSeconds(40), true, List.of(V1Secret.class), List.of(), "example.com/cleanup");
    }

    @Test
    void theNamespaceIsTheOperatorsWhenEmptyEveryOneWhenNullAndItselfOtherwise() {
        assertEquals("operators", in("").namespaceOr("operators"));
        assertNull(in(null).namespaceOr("operators"));
        assertEquals("shop", in("shop").namespaceOr("operators"));
        assertEquals("operators", in("").withNamespace("operators").namespace());
    }

    @Test
    void eachCopyChangesOnePartAndKeepsTheRest() {
        WatchMapper watch = new WatchMapper(V1Secret.class, "w", object -> List.of());
        CacheIndex index = new CacheIndex(V1ConfigMap.class, "by", "d", object -> List.of());
        ObjectTransform trim = new ObjectTransform(V1Secret.class, "Trim.it", object -> object);
        ControllerDefinition base = in("shop");
        ControllerDefinition all = base.withWatches(List.of(watch)).withIndexes(List.of(index)).withTransforms(List.of(trim))
                .withNamespace("operators");
        assertEquals(List.of(watch), all.watches());
        assertEquals(List.of(index), all.indexes());
        assertEquals(List.of(trim), all.transforms());
        assertEquals(new ControllerDefinition(base.name(), base.kind(), base.namespace(), base.labelSelector(), base.workers(),
                base.resync(), base.syncTimeout(), base.shutdownTimeout(), base.reconcileTimeout(), base.statusEvents(), base.owns(),
                List.of(watch), base.finalizer(), List.of(index), List.of(trim)), all, "nothing else changed");
        assertSame(trim, all.transformOf(V1Secret.class));
        assertNull(all.transformOf(V1ConfigMap.class), "no transform declared for the kind");
    }
}
