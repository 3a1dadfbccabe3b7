package dev.mooring.api;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Objects;

/**
 * An object of some kind as a metadata-only watch sees it (Kubernetes'
 * {@code meta.k8s.io/v1 PartialObjectMetadata}, which client-java has no model of): its
 * {@code metadata} alone, with the {@code apiVersion} and {@code kind} of the kind watched
 * ({@code v1}, {@code Secret}), not {@code PartialObjectMetadata}. See {@link Watch#metadataOf}.
 */
public final class PartialObjectMetadata implements KubernetesObject {

    private String apiVersion;
    private String kind;
    private V1ObjectMeta metadata;

    /** An empty one (for decoding). */
    public PartialObjectMetadata() {
    }

    /** The metadata of an object of {@code kind} in {@code apiVersion}. */
    public PartialObjectMetadata(String apiVersion, String kind, V1ObjectMeta metadata) {
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.metadata = metadata;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    @Override
    public V1ObjectMeta getMetadata() {
        return metadata;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PartialObjectMetadata that && Objects.equals(apiVersion, that.apiVersion)
                && Objects.equals(kind, that.kind) && Objects.equals(metadata, that.metadata);
    }

    @Override
    public int hashCode() {
        return Objects.hash(apiVersion, kind, metadata);
    }

    @Override
    public String toString() {
        return kind + " " + (metadata == null ? "" : metadata.getNamespace() + "/" + metadata.getName()) + " (metadata only)";
    }
}
