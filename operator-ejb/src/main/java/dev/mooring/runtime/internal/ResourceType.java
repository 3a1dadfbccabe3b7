package dev.mooring.runtime.internal;

import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;

/**
 * A kind as the API server serves it: group, version, kind, plural resource name and scope,
 * plus the model class that represents it.
 */
public record ResourceType<T extends KubernetesObject>(
        String group, String version, String kind, String plural, boolean namespaced, Class<T> modelClass) {

    public ResourceType {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(plural, "plural");
        Objects.requireNonNull(modelClass, "modelClass");
    }

    /** {@code v1} for the core group, else {@code group/version}. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** The collection path, in {@code namespace} or across all namespaces when it is null. */
    public String collectionPath(String namespace) {
        String prefix = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
        return namespaced && namespace != null
                ? prefix + "/namespaces/" + namespace + "/" + plural
                : prefix + "/" + plural;
    }

    /** The path of one object. */
    public String itemPath(String namespace, String name) {
        if (namespaced && (namespace == null || namespace.isBlank())) {
            throw new IllegalArgumentException(kind + " is namespaced: a namespace is needed to address " + name);
        }
        return collectionPath(namespace) + "/" + name;
    }

    @Override
    public String toString() {
        return kind + "." + apiVersion();
    }
}
