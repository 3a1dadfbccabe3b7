package dev.mooring.api;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * A base for {@link CustomResource} classes: {@code apiVersion} and {@code kind} from the
 * class's annotation, and {@code metadata}, so that a custom resource class declares only its
 * {@code spec} and {@code status}:
 *
 * <pre>{@code
 * @CustomResource(group = "example.com", version = "v1")
 * public class Greeting extends CustomObject {
 *     public Spec spec;
 *     public Status status;
 *     ...
 * }
 * }</pre>
 *
 * <p>The fields are written and read by client-java's JSON as if the class declared them; the
 * generated CRD is the same.
 */
public abstract class CustomObject implements KubernetesObject {

    private String apiVersion;
    private String kind;
    private V1ObjectMeta metadata;

    /**
     * Takes apiVersion and kind from the class's {@link CustomResource}.
     *
     * @throws IllegalStateException when the class is not annotated {@link CustomResource}
     */
    protected CustomObject() {
        CustomResource resource = getClass().getAnnotation(CustomResource.class);
        if (resource == null) {
            throw new IllegalStateException(getClass().getName() + " extends CustomObject but is not annotated @CustomResource");
        }
        apiVersion = resource.group() + "/" + resource.version();
        kind = resource.kind().isEmpty() ? getClass().getSimpleName() : resource.kind();
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

    /** Sets the metadata (name, namespace, labels, ...); returns this object. */
    public CustomObject setMetadata(V1ObjectMeta metadata) {
        this.metadata = metadata;
        return this;
    }
}
