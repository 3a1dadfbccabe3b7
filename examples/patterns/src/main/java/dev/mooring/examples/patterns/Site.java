package dev.mooring.examples.patterns;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.Default;
import dev.mooring.api.crd.Description;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;

/** A site whose configuration depends on its environment: the conditional-configuration pattern's primary. */
@CustomResource(group = "patterns.mooring.dev", version = "v1alpha1")
@Description("A site's settings, chosen by its environment, kept in the ConfigMap <site>-settings.")
public class Site extends CustomObject {

    private Spec spec;
    private Status status;

    public Site() {
    }

    public Site(String namespace, String name, String environment) {
        setMetadata(new V1ObjectMeta().namespace(namespace).name(name));
        spec = new Spec();
        spec.environment = environment;
    }

    /** What the user asks for. */
    public static class Spec {
        @Default("\"development\"")
        @Description("production, staging, or anything else for development settings.")
        public String environment;
    }

    /** What the controller reports. */
    public static class Status {
        @Description("The digest of the settings ConfigMap's data, as the cache last saw it.")
        public String settingsChecksum;
        @Description("The generation of the spec the last successful pass acted on (kept by Mooring).")
        public Long observedGeneration;
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
