package dev.mooring.engine.kube;

import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;

/**
 * A kind and where it is served: group, version, kind, plural resource name and scope, plus the
 * model class that represents it (apimachinery's GroupVersionKind with its REST mapping). Found by
 * {@link Kinds}.
 *
 * @param plural the resource name; null for a kind that is only carried by a subresource (Scale),
 *     which has no path of its own
 */
public record ResourceType<T extends KubernetesObject>(
        String group, String version, String kind, String plural, boolean namespaced, Class<T> modelClass) {

    public ResourceType {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(modelClass, "modelClass");
        KubeNames.group(group, "group");
        KubeNames.version(version, "version");
        KubeNames.kind(kind, "kind");
        if (plural != null) {
            KubeNames.resource(plural, "plural");
        }
    }

    /** The same kind, served as {@code PartialObjectMetadata}: what a metadata-only informer lists and watches. */
    public ResourceType<dev.mooring.api.PartialObjectMetadata> metadataOnly() {
        return new ResourceType<>(group, version, kind, plural, namespaced, dev.mooring.api.PartialObjectMetadata.class);
    }

    /** Whether this type is served as {@code PartialObjectMetadata} (see {@link #metadataOnly()}). */
    public boolean isMetadataOnly() {
        return modelClass == dev.mooring.api.PartialObjectMetadata.class;
    }

    /**
     * The {@code Accept} header of a list of this type: JSON, as {@code PartialObjectMetadataList}
     * for a metadata-only type.
     */
    public String listAccept() {
        return isMetadataOnly() ? "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1" : "application/json";
    }

    /** The {@code Accept} header of a watch of this type (each event's object as {@code PartialObjectMetadata} for a metadata-only type). */
    public String watchAccept() {
        return isMetadataOnly() ? "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1" : "application/json";
    }

    /** {@code v1} for the core group, else {@code group/version}. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /**
     * The collection path, in {@code namespace} or across all namespaces when it is null.
     *
     * @throws IllegalArgumentException if the namespace is not a valid namespace name
     * @throws IllegalStateException for a kind without a resource of its own (Scale)
     */
    public String collectionPath(String namespace) {
        if (plural == null) {
            throw new IllegalStateException(kind + " is only carried by a subresource: it has no path of its own");
        }
        String prefix = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
        return namespaced && namespace != null
                ? prefix + "/namespaces/" + KubeNames.namespace(namespace, "namespace") + "/" + plural
                : prefix + "/" + plural;
    }

    /**
     * The path of one object, its name percent-encoded.
     *
     * @throws IllegalArgumentException if a namespaced kind has no namespace, or the namespace or
     *     name is not valid
     */
    public String itemPath(String namespace, String name) {
        KubeNames.name(name, "name");
        if (namespaced && (namespace == null || namespace.isBlank())) {
            throw new IllegalArgumentException(kind + " is namespaced: a namespace is needed to address " + name);
        }
        return collectionPath(namespace) + "/" + KubeNames.segment(name);
    }

    @Override
    public String toString() {
        return kind + "." + apiVersion() + (isMetadataOnly() ? " (metadata only)" : "");
    }
}
