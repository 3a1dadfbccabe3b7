package dev.mooring.examples.patterns;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1JobStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * The run-to-completion pattern: each run of a Task is a batch Job, created once. A Job's pod
 * template is immutable, so the controller never merges into it ({@link Context#createOnce}):
 * editing the image of a Task leaves its running Job alone, and a new {@code spec.run} starts a
 * new Job, after which the previous runs' Jobs are pruned. The Task's status follows its Job's.
 */
@ApplicationScoped
@Controller(name = "tasks", owns = V1Job.class)
public class TaskController implements Reconciler<Task> {

    @Override
    public Result reconcile(Task task, Context<Task> context) {
        Task.Spec spec = task.getSpec();
        String run = spec == null || spec.run == null || spec.run.isBlank() ? "1" : spec.run;
        String name = task.getMetadata().getName() + "-" + run;
        V1Job job = context.createOnce(new V1Job().apiVersion("batch/v1").kind("Job").metadata(new V1ObjectMeta().name(name))
                .spec(new V1JobSpec().backoffLimit(2).template(new V1PodTemplateSpec().spec(new V1PodSpec().restartPolicy("Never")
                        .addContainersItem(new V1Container().name("task").image(spec == null ? null : spec.image)
                                .command(spec == null ? null : spec.command))))));
        context.prune(V1Job.class, Set.of(name));
        String phase = phase(job.getStatus());
        context.updateStatus(t -> {
            t.setStatus(t.getStatus() == null ? new Task.Status() : t.getStatus());
            t.getStatus().job = name;
            t.getStatus().phase = phase;
        });
        boolean finished = phase.equals("Succeeded") || phase.equals("Failed");
        context.condition("Complete", finished ? "True" : "False", phase, "Job " + name + " " + phase.toLowerCase());
        return Result.done();
    }

    /** The phase of a Job from the counts and conditions its controller writes. */
    static String phase(V1JobStatus status) {
        if (status == null) {
            return "Pending";
        }
        if (status.getConditions() != null) {
            for (var condition : status.getConditions()) {
                if ("True".equals(condition.getStatus()) && ("Complete".equals(condition.getType()) || "Failed".equals(condition.getType()))) {
                    return condition.getType().equals("Complete") ? "Succeeded" : "Failed";
                }
            }
        }
        if (status.getSucceeded() != null && status.getSucceeded() > 0) {
            return "Succeeded";
        }
        return status.getActive() != null && status.getActive() > 0 ? "Running" : "Pending";
    }
}
