package ${package};

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.Default;
import dev.mooring.api.crd.Description;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * The sample custom resource: a greeting in a language. mvn package writes its CRD, with the
 * constraints below, to target/manifests/crds.yaml. {@link CustomObject} gives it apiVersion,
 * kind and metadata.
 */
@CustomResource(group = "${apiGroup}", version = "${crdVersion}")
public class ${kind} extends CustomObject {

    private Spec spec;
    private Status status;

    /** What the user asks for. */
    public static class Spec {
        @NotBlank
        @Size(max = 200)
        @Description("The text of the greeting.")
        public String message;

        @Default("\"en\"")
        @Description("The greeting's language; it cannot change once set.")
        public String language;
    }

    /** What the operator observed: its conditions (Ready). */
    public static class Status {
        public List<V1Condition> conditions;
    }

    public ${kind}() {
    }

    public ${kind}(String namespace, String name, String message, String language) {
        setMetadata(new V1ObjectMeta().namespace(namespace).name(name));
        this.spec = new Spec();
        this.spec.message = message;
        this.spec.language = language;
    }

    public Spec getSpec() {
        return spec;
    }

    public Status getStatus() {
        return status;
    }
}
