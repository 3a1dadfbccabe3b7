package dev.mooring.runtime.admission;

import dev.mooring.api.CustomResource;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/** A custom resource model for the tests: only {@code spec.size} and {@code spec.color} are declared. */
@CustomResource(group = "example.com", version = "v1")
public class Widget implements KubernetesObject {

    String apiVersion = "example.com/v1";
    String kind = "Widget";
    V1ObjectMeta metadata;
    Spec spec;

    /** The declared spec fields. */
    public static class Spec {
        public Integer size;
        public String color;
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
}
