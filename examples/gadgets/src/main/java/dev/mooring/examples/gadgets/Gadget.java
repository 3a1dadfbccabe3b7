package dev.mooring.examples.gadgets;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.Default;
import io.kubernetes.client.openapi.models.V1Condition;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/** A gadget: a size the user asks for, and what the controller saw. */
@CustomResource(group = "gadgets.example.com", version = "v1")
public class Gadget extends CustomObject {

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

    public Spec getSpec() {
        return spec;
    }
}
