package dev.mooring.engine.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.FakeSource;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.List;
import org.junit.jupiter.api.Test;

class ControllingOwnerTest {

    private static final ResourceType<V1Deployment> DEPLOYMENTS = new ResourceType<>("apps", "v1", "Deployment", "deployments", true,
            V1Deployment.class);

    @Test
    void aChildOfAReplacedOwnerReachesTheNewOwnerOnlyWhenItIsDeleted() {
        FakeSource<V1Deployment> owners = new FakeSource<>(DEPLOYMENTS);
        owners.add(new V1Deployment().metadata(new V1ObjectMeta().namespace("ops").name("web").uid("uid-new").resourceVersion("1")));
        ControllingOwner<V1ConfigMap> mapping = new ControllingOwner<>(owners);
        V1ConfigMap ofTheOldOwner = child("uid-old", true);

        assertEquals(List.of(), mapping.keys(ofTheOldOwner, false), "a change of the old owner's child is not the new owner's");
        assertEquals(List.of(new ObjectKey("ops", "web")), mapping.keys(ofTheOldOwner, true),
                "its deletion brings the new owner of the name back at once");
        assertEquals(List.of(new ObjectKey("ops", "web")), mapping.keys(child("uid-new", true), false));
        assertEquals(List.of(), mapping.keys(child("uid-new", false), true), "an owner reference that is not the controller");
    }

    private static V1ConfigMap child(String ownerUid, boolean controller) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name("settings").ownerReferences(List.of(
                new V1OwnerReference().apiVersion("apps/v1").kind("Deployment").name("web").uid(ownerUid).controller(controller))));
    }
}
