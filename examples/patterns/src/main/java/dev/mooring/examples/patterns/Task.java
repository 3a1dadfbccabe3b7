package dev.mooring.examples.patterns;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import dev.mooring.api.crd.Description;
import dev.mooring.api.crd.ListType;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;

/** A command to run to completion in a batch Job, once per run: the run-to-completion pattern's primary. */
@CustomResource(group = "patterns.mooring.dev", version = "v1alpha1")
@Description("A command run to completion by a Job; a new run name starts a new Job, other edits leave the current one alone.")
public class Task extends CustomObject {

    private Spec spec;
    private Status status;

    public Task() {
    }

    public Task(String namespace, String name, String image, String run) {
        setMetadata(new V1ObjectMeta().namespace(namespace).name(name));
        spec = new Spec();
        spec.image = image;
        spec.run = run;
    }

    /** What the user asks for. */
    public static class Spec {
        @Description("The container image that runs the command.")
        public String image;
        @Description("The command and its arguments; the image's entry point when empty.")
        public List<String> command;
        @Description("The name of the current run; the Job is <task>-<run>. Change it to run again.")
        public String run;
    }

    /** What the controller reports. */
    public static class Status {
        @Description("The Job of the current run.")
        public String job;
        @Description("Pending, Running, Succeeded or Failed, from the Job's status.")
        public String phase;
        @ListType(value = ListType.Kind.MAP, keys = "type")
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
