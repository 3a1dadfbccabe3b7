package dev.mooring.manifests;

import com.google.gson.annotations.SerializedName;
import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.Default;
import dev.mooring.api.crd.Description;
import dev.mooring.api.crd.IntOrString;
import dev.mooring.api.crd.ListType;
import dev.mooring.api.crd.PrinterColumn;
import dev.mooring.api.crd.Validation;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Condition;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A custom resource with every kind of field and constraint the generator maps. */
@CustomResource(group = "example.com", version = "v1", shortNames = "gd", categories = "all")
@PrinterColumn(name = "Replicas", jsonPath = ".spec.replicas", type = "integer")
@dev.mooring.api.crd.ScaleSubresource(labelSelectorPath = ".status.selector")
@PrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = "date", priority = 1)
public class Gadget extends CustomObject {

    Spec spec;
    Status status;
    transient String cachedOnly;

    /** The gadget's desired state. */
    @Description("What the user asks for")
    @Validation(rule = "self.minReplicas <= self.replicas", message = "replicas must not be below minReplicas")
    public static class Spec {
        @NotBlank
        @Pattern(regexp = "^[a-z]+$")
        @Description("The gadget's model")
        public String model;

        @NotNull
        @Min(1)
        @Max(10)
        public Integer replicas;

        @Default("1")
        public int minReplicas;

        @Positive
        @DecimalMax(value = "100.5", inclusive = false)
        public double weight;

        public Speed speed;

        @SerializedName("max-size")
        public Quantity maxSize;

        @IntOrString
        public String port;

        @NotEmpty
        @Size(max = 5)
        public List<String> tags;

        public Set<String> owners;

        @Size(min = 1)
        public Map<String, Integer> limits;

        public Map<String, Part> parts;

        @ListType(value = ListType.Kind.MAP, keys = "name")
        public List<Part> ports;

        public OffsetDateTime notBefore;

        public long[] checksums;

        public boolean enabled;
    }

    /** Speeds, written with their serialized names. */
    public enum Speed {
        @SerializedName("slow") SLOW,
        @SerializedName("fast") FAST
    }

    /** A named part. */
    public static class Part {
        @NotNull
        public String name;
        public int size;
    }

    /** What the controller observed. */
    public static class Status {
        @ListType(value = ListType.Kind.MAP, keys = "type")
        public List<V1Condition> conditions;
        public Long observedGeneration;
    }

}
