package dev.mooring.it.widget;

import dev.mooring.api.CustomResource;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;

/** A test custom resource (its CRD is created by WidgetCrd). */
@CustomResource(group = "test.mooring.dev", version = "v1")
public class Widget implements KubernetesObject {

    private String apiVersion = "test.mooring.dev/v1";
    private String kind = "Widget";
    private V1ObjectMeta metadata;
    private Spec spec;
    private Status status;

    public static class Spec {
        public String message;
        public Integer replicas;
    }

    public static class Status {
        public String observed;
        public List<V1Condition> conditions;
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

    public Widget metadata(V1ObjectMeta value) {
        this.metadata = value;
        return this;
    }

    public Spec getSpec() {
        return spec;
    }

    public Widget spec(Spec value) {
        this.spec = value;
        return this;
    }

    public Status getStatus() {
        return status;
    }

    public void setStatus(Status value) {
        this.status = value;
    }
}
