package dev.mooring.examples.patterns;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.Description;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;
import java.util.Map;

/** A set of named values, one ConfigMap each: the child-set pattern's primary. */
@CustomResource(group = "patterns.mooring.dev", version = "v1alpha1")
@Description("Named values, each kept in a ConfigMap of its own; a removed value's ConfigMap is deleted.")
public class Bundle extends CustomObject {

    private Spec spec;
    private Status status;

    public Bundle() {
    }

    public Bundle(String namespace, String name, Map<String, String> entries) {
        setMetadata(new V1ObjectMeta().namespace(namespace).name(name));
        spec = new Spec();
        spec.entries = entries;
    }

    /** What the user asks for. */
    public static class Spec {
        @Description("Entry name to value; each becomes the ConfigMap <bundle>-<entry>.")
        public Map<String, String> entries;
    }

    /** What the controller reports. */
    public static class Status {
        public List<V1Condition> conditions;
    }

    public Spec getSpec() {
        return spec;
    }

    public Status getStatus() {
        return status;
    }

    public void setStatus(Status status) {
        this.status = status;
    }
}
