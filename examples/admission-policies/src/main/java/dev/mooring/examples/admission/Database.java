package dev.mooring.examples.admission;

import dev.mooring.api.CustomResource;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * Someone else's custom resource: the model names the fields the policy reads. The CRD
 * (databases.db.example.org) is installed and owned by another team; fields this class does
 * not declare pass through admission untouched.
 */
@CustomResource(group = "db.example.org", version = "v1")
public class Database implements KubernetesObject {

    private String apiVersion = "db.example.org/v1";
    private String kind = "Database";
    private V1ObjectMeta metadata;
    private Spec spec;

    /** The fields the policy reads. */
    public static class Spec {
        public String engine;
        public Integer storageGb;
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
