package dev.mooring.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.List;
import org.junit.jupiter.api.Test;

class OwnerReferencesTest {

    private static final V1Deployment OWNER = new V1Deployment().apiVersion("apps/v1").kind("Deployment")
            .metadata(new V1ObjectMeta().namespace("ops").name("web").uid("u1"));

    @Test
    void aControllerReferenceNamesTheOwnerAndBlocksItsForegroundDeletion() {
        V1OwnerReference reference = OwnerReferences.controllerOf(OWNER);
        assertEquals(new V1OwnerReference().apiVersion("apps/v1").kind("Deployment").name("web").uid("u1").controller(true)
                .blockOwnerDeletion(true), reference);

        V1ConfigMap child = new V1ConfigMap().metadata(new V1ObjectMeta().ownerReferences(List.of(
                new V1OwnerReference().apiVersion("v1").kind("Other").name("x").uid("u0").controller(false), reference)));
        assertTrue(OwnerReferences.isControlledBy(child, OWNER));
        assertEquals(reference, OwnerReferences.controllerReference(child).orElseThrow(), "the controller, not the first reference");
        V1Deployment replaced = new V1Deployment().apiVersion("apps/v1").kind("Deployment")
                .metadata(new V1ObjectMeta().namespace("ops").name("web").uid("u2"));
        assertFalse(OwnerReferences.isControlledBy(child, replaced), "a new owner of the same name is another owner");
        assertFalse(OwnerReferences.isControlledBy(new V1ConfigMap().metadata(new V1ObjectMeta()), OWNER));
    }

    @Test
    void anOwnerThatWasNotReadFromTheServerIsRefused() {
        assertEquals("An owner reference needs an owner with apiVersion, kind, metadata.name and metadata.uid (an object read from"
                + " the API server)", assertThrows(IllegalArgumentException.class,
                        () -> OwnerReferences.controllerOf(new V1Deployment().apiVersion("apps/v1").kind("Deployment")
                                .metadata(new V1ObjectMeta().name("web")))).getMessage());
    }
}
