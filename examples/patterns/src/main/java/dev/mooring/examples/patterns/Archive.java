package dev.mooring.examples.patterns;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.Description;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/** A storage bucket outside Kubernetes, owned by this object: the finalizer pattern's primary. */
@CustomResource(group = "patterns.mooring.dev", version = "v1alpha1")
@Description("A bucket in an external store, created for this object and deleted with it.")
public class Archive extends CustomObject {

    private Status status;

    public Archive() {
    }

    public Archive(String namespace, String name) {
        setMetadata(new V1ObjectMeta().namespace(namespace).name(name));
    }

    /** What the controller reports. */
    public static class Status {
        @Description("The bucket's name in the external store.")
        public String bucket;

        @Description("Why the last pass failed, while it did; absent after a pass that succeeded.")
        public String error;
    }

    public Status getStatus() {
        return status;
    }

    public void setStatus(Status status) {
        this.status = status;
    }
}
