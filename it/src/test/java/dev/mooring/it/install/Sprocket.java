package dev.mooring.it.install;

import dev.mooring.api.CustomResource;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/** A kind of InstallerIT's own, so that installing and uninstalling its CRD touches no other test. */
@CustomResource(group = "install.mooring.dev", version = "v1")
public class Sprocket implements KubernetesObject {

    private String apiVersion = "install.mooring.dev/v1";
    private String kind = "Sprocket";
    private V1ObjectMeta metadata;
    private Spec spec;

    /** What the user asks for. */
    public static class Spec {
        public Integer teeth;
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
}
