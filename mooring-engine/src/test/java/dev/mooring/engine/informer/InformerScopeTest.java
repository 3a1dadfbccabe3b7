package dev.mooring.engine.informer;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.openapi.models.V1Namespace;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What an informer watches: the scope of a namespaced or cluster-scoped kind, blank selectors as none, and its description. */
class InformerScopeTest {

    private static final ResourceType<V1Namespace> NAMESPACES = new ResourceType<>("", "v1", "Namespace", "namespaces", false,
            V1Namespace.class);

    @Test
    void aScopeAsksWithItsSelectorsOnItsPath() {
        InformerScope scope = new InformerScope(CONFIG_MAPS, "ops", "app=web", "metadata.name=a");
        assertEquals("/api/v1/namespaces/ops/configmaps", scope.path());
        assertEquals(Map.of("labelSelector", "app=web", "fieldSelector", "metadata.name=a"), scope.query());
        assertEquals("ConfigMap in ops with labels app=web with fields metadata.name=a", scope.describe());
    }

    @Test
    void blankSelectorsAreNoneAndAClusterScopedKindHasNoNamespace() {
        InformerScope scope = new InformerScope(NAMESPACES, "ops", " ", "");
        assertEquals(null, scope.namespace());
        assertEquals("/api/v1/namespaces", scope.path());
        assertEquals(Map.of(), scope.query());
        assertEquals("Namespace (all namespaces)", scope.describe());
        assertEquals("ConfigMap (all namespaces) (metadata only)", new InformerScope(CONFIG_MAPS.metadataOnly(), null, null, null).describe());
    }
}
