package dev.mooring.api;

import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;

/**
 * Identity of one object within a controller's primary kind: its namespace and name.
 *
 * <p>A key carries no object contents and no event: reconciliation is level-based, so the
 * reconciler always reads the current state for the key, never a description of what changed.
 * Keys are values (equal when namespace and name are equal) and are the work queue's keys.
 *
 * @param namespace the namespace, or {@code null} for a cluster-scoped object
 * @param name the object's name, never blank
 */
public record ObjectKey(String namespace, String name) {

    /**
     * @throws IllegalArgumentException if {@code name} is null or blank, or {@code namespace} is blank
     */
    public ObjectKey {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("An object key needs a name");
        }
        if (namespace != null && namespace.isBlank()) {
            throw new IllegalArgumentException("An object key's namespace is null (cluster scope) or not blank");
        }
    }

    /**
     * The key of a fetched or cached object.
     *
     * @throws IllegalArgumentException if the object has no {@code metadata.name}
     */
    public static ObjectKey of(KubernetesObject object) {
        Objects.requireNonNull(object, "object");
        if (object.getMetadata() == null || object.getMetadata().getName() == null) {
            throw new IllegalArgumentException("An object key needs metadata.name");
        }
        return new ObjectKey(object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    /** {@code namespace/name}, or {@code name} for cluster scope. */
    @Override
    public String toString() {
        return namespace == null ? name : namespace + "/" + name;
    }
}
