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
        return ControllerDefinition.builder("maps", V1ConfigMap.class).namespace(namespace).labelSelector("app=web").workers(3)
                .resync(Duration.ofMinutes(10)).syncTimeout(Duration.ofSeconds(20)).shutdownTimeout(Duration.ofSeconds(30))
                .reconcileTimeout(Duration.ofSeconds(40)).statusEvents(true).owns(List.of(V1Secret.class))
                .finalizer("example.com/cleanup").build();
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
        assertEquals(ControllerDefinition.builder(base.name(), base.kind()).namespace(base.namespace()).labelSelector(base
                .labelSelector()).workers(base.workers()).resync(base.resync()).syncTimeout(base.syncTimeout())
                .shutdownTimeout(base.shutdownTimeout()).reconcileTimeout(base.reconcileTimeout()).statusEvents(base
                .statusEvents()).owns(base.owns()).watches(List.of(watch)).finalizer(base.finalizer()).indexes(List.of(index))
                .transforms(List.of(trim)).build(), all, "nothing else changed");
        assertSame(trim, all.transformOf(V1Secret.class));
        assertNull(all.transformOf(V1ConfigMap.class), "no transform declared for the kind");
    }
}
