package dev.mooring.engine.handler;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.ResourceType;
import dev.mooring.engine.source.EventSource;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Maps an owned object to its controlling owner of the primary kind (controller-runtime's
 * {@code EnqueueRequestForOwner} with {@code OnlyControllerOwner}): a change maps to the owner
 * while it is cached with the reference's UID; a deletion maps to the cached primary of the
 * owner's name whatever its UID, so that the deletion of a child of a replaced owner brings the
 * new owner of the same name back at once. The owner's kind is resolved once, when built.
 */
public final class ControllingOwner<C extends KubernetesObject> implements KeyMapping<C> {

    private final EventSource<?> owners;
    private final String ownerKind;
    private final String ownerGroup;
    private final boolean namespaced;

    public ControllingOwner(EventSource<?> owners) {
        ResourceType<?> type = owners.type();
        this.owners = owners;
        this.ownerKind = type.kind();
        this.ownerGroup = type.group();
        this.namespaced = type.namespaced();
    }

    @Override
    public Collection<ObjectKey> keys(C child, boolean deleted) {
        List<V1OwnerReference> references = child.getMetadata().getOwnerReferences();
        if (references == null) {
            return List.of();
        }
        List<ObjectKey> keys = new ArrayList<>(1);
        for (V1OwnerReference reference : references) {
            if (Boolean.TRUE.equals(reference.getController()) && ownerKind.equals(reference.getKind())
                    && ownerGroup.equals(groupOf(reference.getApiVersion()))) {
                ObjectKey key = new ObjectKey(namespaced ? child.getMetadata().getNamespace() : null, reference.getName());
                owners.cached(key)
                        .filter(owner -> deleted || Objects.equals(owner.getMetadata().getUid(), reference.getUid()))
                        .ifPresent(owner -> keys.add(key));
            }
        }
        return keys;
    }

    private static String groupOf(String apiVersion) {
        int slash = apiVersion == null ? -1 : apiVersion.lastIndexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
