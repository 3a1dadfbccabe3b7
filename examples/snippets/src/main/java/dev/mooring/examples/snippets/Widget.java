package dev.mooring.examples.snippets;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import io.kubernetes.client.openapi.models.V1Condition;
import java.util.List;

/**
 * A custom resource: its CRD (group example.com, kind Widget, status subresource) is generated with
 * the manifests from this class (operator-manifests' golden install-widgets.yaml), its admission
 * policy is {@link WidgetPolicy}.
 */
@CustomResource(group = "example.com", version = "v1")
public class Widget extends CustomObject {

    private Spec spec;
    private Status status;

    /** What the user asks for. */
    public static class Spec {
        public String message;
        public Integer replicas;
        public boolean exposed;
    }

    /** What the controller observed. */
    public static class Status {
        public String observedMessage;
        public List<V1Condition> conditions;
    }

    public Spec getSpec() {
        return spec;
    }

    public void setSpec(Spec spec) {
        this.spec = spec;
    }

    public Status getStatus() {
        return status;
    }

    public void setStatus(Status status) {
        this.status = status;
    }
}
