package dev.mooring.examples.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.test.Eventually;
import dev.mooring.test.MooringExtension;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import io.kubernetes.client.openapi.models.V1JobStatus;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The run-to-completion pattern against the local API server, which keeps a Job's pod template
 * immutable as Kubernetes does. No Job controller runs there: the test writes the Job's status.
 */
class TaskControllerTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @RegisterExtension
    static final MooringExtension mooring = MooringExtension.embedded(new TaskController());

    private final ResourceClient client = mooring.client();

    @Test
    void aRunIsOneJobCreatedOnceAndNeverRewrittenByLaterEdits() {
        Task created = client.create(new Task(mooring.namespace(), "report", "busybox:1.36", "first"));
        V1Job job = mooring.awaitObject(V1Job.class, "report-first", j -> true, PATIENCE);
        assertEquals(created.getMetadata().getUid(), job.getMetadata().getOwnerReferences().get(0).getUid(), "controlled by the Task");
        assertEquals("Never", job.getSpec().getTemplate().getSpec().getRestartPolicy());
        assertTrue(job.getSpec().getTemplate().getMetadata().getLabels().containsKey("batch.kubernetes.io/job-name"),
                "the API server labelled the template: " + job.getSpec().getTemplate().getMetadata());
        mooring.awaitObject(Task.class, "report", t -> t.getStatus() != null && "Pending".equals(t.getStatus().phase), PATIENCE);

        KubernetesException immutable = assertThrows(KubernetesException.class, () -> client.mutate(job,
                j -> j.getSpec().getTemplate().getSpec().getContainers().get(0).image("busybox:1.37")));
        assertEquals(422, immutable.code(), "a Job's template cannot change, which is why the controller creates it once");

        client.mutate(client.get(Task.class, null, "report").orElseThrow(), t -> t.getSpec().image = "busybox:1.37");
        // the pass over the edited Task succeeds (a merge into the Job would be refused, failing it)
        mooring.awaitObject(Task.class, "report", t -> t.getStatus().conditions != null
                && t.getStatus().conditions.stream().anyMatch(c -> c.getObservedGeneration() == 2L), PATIENCE);
        Eventually.consistently("the Job of the running run is left as it was", Duration.ofSeconds(2), () -> {
            V1Job now = client.get(V1Job.class, null, "report-first").orElseThrow();
            return now.getMetadata().getResourceVersion().equals(job.getMetadata().getResourceVersion());
        });
    }

    @Test
    void theTaskFollowsItsJobAndANewRunReplacesIt() {
        client.create(new Task(mooring.namespace(), "backup", "busybox:1.36", "monday"));
        V1Job monday = mooring.awaitObject(V1Job.class, "backup-monday", j -> true, PATIENCE);

        // what Kubernetes' Job controller writes (and the API server requires) when the Job's pod succeeded
        OffsetDateTime started = OffsetDateTime.now().minusSeconds(5);
        client.updateStatus(monday.status(new V1JobStatus().succeeded(1).startTime(started).completionTime(started.plusSeconds(5))
                .addConditionsItem(new V1JobCondition().type("SuccessCriteriaMet").status("True").lastTransitionTime(started.plusSeconds(5)))
                .addConditionsItem(new V1JobCondition().type("Complete").status("True").lastTransitionTime(started.plusSeconds(5)))));
        Task done = mooring.awaitObject(Task.class, "backup", t -> t.getStatus() != null && "Succeeded".equals(t.getStatus().phase),
                PATIENCE);
        assertEquals("backup-monday", done.getStatus().job);
        assertEquals(List.of("True"), done.getStatus().conditions.stream().map(c -> c.getStatus()).toList());

        client.mutate(done, t -> t.getSpec().run = "tuesday");
        mooring.awaitObject(V1Job.class, "backup-tuesday", j -> true, PATIENCE);
        mooring.awaitGone(V1Job.class, "backup-monday", PATIENCE);
        mooring.awaitObject(Task.class, "backup", t -> "backup-tuesday".equals(t.getStatus().job) && "Pending".equals(t.getStatus().phase),
                PATIENCE);
    }
}
