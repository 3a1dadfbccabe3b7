package dev.mooring.engine.kube;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Where a model class's kind is served (apimachinery's RESTMapper): its {@link ResourceType}.
 * Two sources answer: {@link #offline()}, from the class alone, for what is generated without an
 * API server (manifests, webhook configurations, admission routes); and
 * {@link DiscoveredKinds}, from the API server's discovery, the authority at run time.
 */
public interface Kinds {

    /**
     * The kind of {@code model}, where it is served.
     *
     * @throws IllegalArgumentException if the class is not a model this source can place
     * @throws dev.mooring.api.client.KubernetesException from an online source: 404 when the kind is
     *     not served, another code when discovery fails
     */
    <T extends KubernetesObject> ResourceType<T> resolve(Class<T> model);

    /**
     * Kinds known without an API server: from {@code @CustomResource} for custom resources, from
     * the model's name and Kubernetes' built-in kinds otherwise.
     */
    static Kinds offline() {
        return OfflineKinds.INSTANCE;
    }

    /**
     * The kind a model class names ({@code V1ConfigMap}: {@code ConfigMap}), without placing it.
     *
     * @throws IllegalArgumentException if the class name does not follow client-java's model naming
     */
    static String kindName(Class<?> model) {
        return ModelKind.of(model).kind();
    }
}
