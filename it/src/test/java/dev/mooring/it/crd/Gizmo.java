package dev.mooring.it.crd;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.Default;
import dev.mooring.api.crd.IntOrString;
import dev.mooring.api.crd.ListType;
import dev.mooring.api.crd.ScaleSubresource;
import dev.mooring.api.crd.Validation;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;

/** For CrdGenerationIT: a custom resource whose generated CRD the real API server enforces. */
@CustomResource(group = "crd.mooring.dev", version = "v1", shortNames = "gz")
@ScaleSubresource(specReplicasPath = ".spec.size", statusReplicasPath = ".status.size")
public class Gizmo extends CustomObject {

    Spec spec;
    Status status;

    /** The desired state. */
    @Validation(rule = "!has(self.maxSize) || self.size <= self.maxSize", message = "size must not exceed maxSize")
    public static class Spec {
        @NotNull
        @Min(1)
        @Max(5)
        public Integer size;

        public Integer maxSize;

        @Pattern(regexp = "^[a-z]+$")
        public String model;

        @Default("\"basic\"")
        public String tier;

        public Speed speed;

        @IntOrString
        public String port;

        @Size(max = 2)
        public List<String> tags;

        public Map<String, String> labels;

        @ListType(value = ListType.Kind.MAP, keys = "name")
        public List<Part> parts;
    }

    /** Speeds. */
    public enum Speed { SLOW, FAST }

    /** A part, identified by its name. */
    public static class Part {
        @NotNull
        public String name;
        public int count;
    }

    /** The observed state. */
    public static class Status {
        public String phase;
        public Integer size;
    }

}
