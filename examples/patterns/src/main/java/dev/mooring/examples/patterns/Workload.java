package dev.mooring.examples.patterns;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.Description;
import dev.mooring.api.crd.PrinterColumn;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.validation.constraints.NotNull;
import java.util.Map;

/** A summary of the Pods a label selector selects: the workload-summary pattern's primary. */
@CustomResource(group = "patterns.mooring.dev", version = "v1alpha1")
@Description("Counts the Pods of its namespace that carry all of spec.selector's labels; never writes a Pod.")
@PrinterColumn(name = "Pods", type = "integer", jsonPath = ".status.pods")
@PrinterColumn(name = "Ready", type = "integer", jsonPath = ".status.ready")
public class Workload extends CustomObject {

    private Spec spec;
    private Status status;

    public Workload() {
    }

    public Workload(String namespace, String name, Map<String, String> selector) {
        setMetadata(new V1ObjectMeta().namespace(namespace).name(name));
        spec = new Spec();
        spec.selector = selector;
    }

    /** What to summarize. */
    public static class Spec {
        @NotNull
        @Description("Labels a Pod must all carry to be counted.")
        public Map<String, String> selector;
    }

    /** The summary. */
    public static class Status {
        public Integer pods;
        public Integer ready;
        @Description("Pods by phase.")
        public Map<String, Integer> phases;
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
