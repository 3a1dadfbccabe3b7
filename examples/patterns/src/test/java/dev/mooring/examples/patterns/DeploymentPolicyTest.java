package dev.mooring.examples.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.KubernetesException;
import dev.mooring.examples.admission.DeploymentPolicy;
import dev.mooring.test.MooringExtension;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import jakarta.json.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Deployment policy through the API server: the test kit serves the bean and registers its
 * webhooks, so that the API server itself defaults the label on create, refuses to drop it and
 * refuses to delete a protected Deployment, as it would with the operator in a cluster.
 */
class DeploymentPolicyTest {

    @RegisterExtension
    static final MooringExtension mooring = MooringExtension.embedded().withAdmission(new DeploymentPolicy());

    private static V1Deployment deployment(String name, Map<String, String> labels) {
        Map<String, String> app = Map.of("app", name);
        return new V1Deployment().apiVersion("apps/v1").kind("Deployment")
                .metadata(new V1ObjectMeta().name(name).namespace(mooring.namespace()).labels(labels))
                .spec(new V1DeploymentSpec().selector(new V1LabelSelector().matchLabels(app))
                        .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(app))
                                .spec(new V1PodSpec().containers(List.of(new V1Container().name("app").image("example/app:1"))))));
    }

    @Test
    void theApiServerStoresTheDefaultedLabelAndRefusesToDropIt() {
        V1Deployment created = mooring.client().create(deployment("web", Map.of("tier", "front")));
        assertEquals("unassigned", created.getMetadata().getLabels().get(DeploymentPolicy.TEAM), "defaulted by the mutating webhook");
        KubernetesException refused = assertThrows(KubernetesException.class, () -> mooring.client().patch(created,
                Json.createArrayBuilder().add(Json.createObjectBuilder().add("op", "remove")
                        .add("path", "/metadata/labels/policy.mooring.dev~1team")).build()));
        assertEquals(403, refused.code(), refused.getMessage());
        assertTrue(refused.getMessage().contains("label policy.mooring.dev/team is immutable (was unassigned)"), refused.getMessage());
    }

    @Test
    void aProtectedDeploymentCannotBeDeleted() {
        V1Deployment guarded = mooring.client().create(deployment("guarded", Map.of(DeploymentPolicy.PROTECTED, "true")));
        KubernetesException refused = assertThrows(KubernetesException.class, () -> mooring.client().delete(guarded));
        assertTrue(refused.getMessage().contains("Deployment guarded is protected"), refused.getMessage());
        assertTrue(mooring.client().get(V1Deployment.class, null, "guarded").isPresent());
    }
}
