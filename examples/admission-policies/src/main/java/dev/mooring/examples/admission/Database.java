package dev.mooring.examples.admission;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;

/**
 * Someone else's custom resource: the model names the fields the policy reads. The CRD
 * (databases.db.example.org) is installed and owned by another team; fields this class does
 * not declare pass through admission untouched.
 */
@CustomResource(group = "db.example.org", version = "v1")
public class Database extends CustomObject {

    private Spec spec;

    /** The fields the policy reads. */
    public static class Spec {
        public String engine;
        public Integer storageGb;
    }

    public Spec getSpec() {
        return spec;
    }
}
