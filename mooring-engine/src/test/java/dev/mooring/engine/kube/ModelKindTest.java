package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V2HorizontalPodAutoscaler;
import org.junit.jupiter.api.Test;

class ModelKindTest {

    @Test
    void versionAndKindComeFromTheClassName() {
        assertEquals(new ModelKind(null, "v1", "ConfigMap"), ModelKind.of(V1ConfigMap.class));
        assertEquals(new ModelKind(null, "v1", "Deployment"), ModelKind.of(V1Deployment.class));
        assertEquals(new ModelKind(null, "v2", "HorizontalPodAutoscaler"), ModelKind.of(V2HorizontalPodAutoscaler.class));
        assertEquals(new ModelKind("", "v1", "Event"), ModelKind.of(CoreV1Event.class));
        assertEquals(new ModelKind("events.k8s.io", "v1", "Event"), ModelKind.of(EventsV1Event.class));
    }

    @Test
    void otherClassesAreRejectedWithTheirName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelKind.of(String.class));
        assertEquals("java.lang.String is not named like a client-java model of a Kubernetes kind (such as V1ConfigMap)",
                e.getMessage());
    }

    @dev.mooring.api.CustomResource(group = "example.com", version = "v1")
    static class Backup extends io.kubernetes.client.openapi.models.V1Job {
    }

    @dev.mooring.api.ApiGroup("cert-manager.io")
    static class V1Certificate extends V1ConfigMap {
    }

    @Test
    void aCustomResourceExtendingAClientJavaModelIsRefusedAndApiGroupPinsAGroup() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelKind.of(Backup.class));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains(Backup.class.getName() + " extends the client-java model V1Job"),
                e.getMessage());
        assertEquals(new ModelKind("cert-manager.io", "v1", "Certificate"), ModelKind.of(V1Certificate.class));
    }
}
