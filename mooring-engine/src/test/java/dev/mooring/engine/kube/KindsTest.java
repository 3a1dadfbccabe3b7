package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Scale;
import org.junit.jupiter.api.Test;

/** The offline source of kinds: one ResourceType from a class alone. Discovery's answers are the integration tests'. */
class KindsTest {

    @CustomResource(group = "example.com", version = "v1alpha1", clusterScoped = true)
    public static class Policy extends CustomObject {
    }

    @Test
    void builtInKindsComeFromTheModelNameAndTheTableOfBuiltIns() {
        assertEquals(new ResourceType<>("apps", "v1", "Deployment", "deployments", true, V1Deployment.class),
                Kinds.offline().resolve(V1Deployment.class));
        assertEquals(new ResourceType<>("", "v1", "Namespace", "namespaces", false, V1Namespace.class),
                Kinds.offline().resolve(V1Namespace.class));
        assertEquals("/api/v1/namespaces/ops/configmaps/a-b",
                Kinds.offline().resolve(V1ConfigMap.class).itemPath("ops", "a-b"));
    }

    @Test
    void aCustomResourceNamesItsOwnGroupVersionAndScopeAndGetsTheEnglishPlural() {
        ResourceType<Policy> policies = Kinds.offline().resolve(Policy.class);
        assertEquals(new ResourceType<>("example.com", "v1alpha1", "Policy", "policies", false, Policy.class), policies);
        assertEquals("/apis/example.com/v1alpha1/policies", policies.collectionPath("ignored for a cluster-scoped kind"));
        assertEquals("Policy", Kinds.kindName(Policy.class));
    }

    @Test
    void aKindCarriedOnlyBySubresourcesHasNoPathOfItsOwn() {
        ResourceType<V1Scale> scale = Kinds.offline().resolve(V1Scale.class);
        assertEquals("autoscaling/v1", scale.apiVersion());
        assertEquals("Scale is only carried by a subresource: it has no path of its own",
                assertThrows(IllegalStateException.class, () -> scale.collectionPath("ops")).getMessage());
    }

    @Test
    void aClassThatIsNoModelIsRefusedWithWhatToDo() {
        assertEquals("java.lang.String is not named like a client-java model of a Kubernetes kind (such as V1ConfigMap)",
                assertThrows(IllegalArgumentException.class, () -> Kinds.kindName(String.class)).getMessage());
    }
}
