package dev.mooring.examples.gadgets;

import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.Default;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/** A gadget: a size the user asks for, and what the controller saw. */
@CustomResource(group = "gadgets.example.com", version = "v1")
public class Gadget implements KubernetesObject {

    private String apiVersion = "gadgets.example.com/v1";
    private String kind = "Gadget";
    private V1ObjectMeta metadata;
    private Spec spec;
    private Status status;

    /** What the user asks for. */
    public static class Spec {
        @NotNull
        @Min(1)
        @Max(10)
        public Integer size;

        @Default("\"small\"")
        public String flavour;
    }

    /** What the controller observed. */
    public static class Status {
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

    public Spec getSpec() {
        return spec;
    }
}
