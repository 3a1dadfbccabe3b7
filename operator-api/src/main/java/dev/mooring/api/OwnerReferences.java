package dev.mooring.api;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Owner references as controllers write them (controller-runtime's
 * {@code SetControllerReference}): for children made by hand, outside {@link Context#ensure}
 * and {@link Context#apply}, which set them themselves.
 */
public final class OwnerReferences {

    private OwnerReferences() {
    }

    /**
     * A controller reference to {@code owner}: its apiVersion, kind, name and UID, with
     * {@code controller} and {@code blockOwnerDeletion} true (a foreground deletion of the owner
     * waits for the child).
     *
     * @throws IllegalArgumentException if the owner has no apiVersion, kind, name or UID (it was
     *     not read from the API server)
     */
    public static V1OwnerReference controllerOf(KubernetesObject owner) {
        Objects.requireNonNull(owner, "owner");
        if (owner.getApiVersion() == null || owner.getKind() == null || owner.getMetadata() == null
                || owner.getMetadata().getName() == null || owner.getMetadata().getUid() == null) {
            throw new IllegalArgumentException("An owner reference needs an owner with apiVersion, kind, metadata.name and"
                    + " metadata.uid (an object read from the API server)");
        }
        return new V1OwnerReference().apiVersion(owner.getApiVersion()).kind(owner.getKind())
                .name(owner.getMetadata().getName()).uid(owner.getMetadata().getUid())
                .controller(true).blockOwnerDeletion(true);
    }

    /** The child's controller reference, if it has one. */
    public static Optional<V1OwnerReference> controllerReference(KubernetesObject child) {
        List<V1OwnerReference> references = child.getMetadata() == null ? null : child.getMetadata().getOwnerReferences();
        return references == null ? Optional.empty()
                : references.stream().filter(reference -> Boolean.TRUE.equals(reference.getController())).findFirst();
    }

    /** Whether {@code child}'s controller reference names {@code owner} (the same UID: not a replaced owner of that name). */
    public static boolean isControlledBy(KubernetesObject child, KubernetesObject owner) {
        return controllerReference(child).map(reference -> Objects.equals(reference.getUid(), owner.getMetadata().getUid()))
                .orElse(false);
    }
}
