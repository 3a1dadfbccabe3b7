package dev.mooring.engine.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.DesiredStateReconciler;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Result;
import dev.mooring.engine.RecordingClient;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** A reconciler that returns the desired object: its spec and metadata changes are one guarded patch, its status goes to the status write. */
class DesiredStateAdapterTest {

    private final RecordingClient client = new RecordingClient();

    private static V1Deployment deployment(V1DeploymentStatus status) {
        return new V1Deployment().apiVersion("apps/v1").kind("Deployment").metadata(new V1ObjectMeta().namespace("ops").name("web")
                .uid("u-web").resourceVersion("5")).spec(new V1DeploymentSpec().replicas(1).selector(new V1LabelSelector())
                .template(new V1PodTemplateSpec())).status(status);
    }

    private List<String> pass(V1Deployment cached, UnaryOperator<V1Deployment> desired) throws Exception {
        client.requests.clear();
        ReconcileContext<V1Deployment> context = new ReconcileContext<>(new ControllerView("web", new ControllerCaches("web"),
                key -> { }, Clock.systemUTC(), Set.of(), new StatusWrites()), new ObjectKey("ops", "web"), cached, client);
        DesiredStateReconciler<V1Deployment> author = (resource, ignored) -> desired.apply(resource);
        assertEquals(Result.done(), new DesiredStateAdapter<>(author).run(dev.mooring.engine.kube.Models.copy(cached), context));
        return List.copyOf(client.requests);
    }

    @Test
    void aStatusOnlyChangeIsNoPatchOfTheObjectWhetherTheStatusWasThereOrNot() throws Exception {
        assertEquals(List.of(), pass(deployment(null), d -> d.status(new V1DeploymentStatus().replicas(3))), "an added status");
        assertEquals(List.of(), pass(deployment(new V1DeploymentStatus().replicas(1)), d -> {
            d.getStatus().setReplicas(3);
            return d;
        }), "a changed status field");
        assertEquals(List.of(), pass(deployment(null), d -> null), "null: nothing to change");
    }

    @Test
    void aSpecChangeIsOneGuardedPatchWithoutTheStatus() throws Exception {
        List<String> sent = pass(deployment(new V1DeploymentStatus().replicas(1)), d -> {
            d.getSpec().setReplicas(4);
            d.getStatus().setReplicas(4);
            return d;
        });
        assertEquals(1, sent.size(), sent.toString());
        assertTrue(sent.get(0).startsWith("PATCH ops/web [{\"op\":\"test\",\"path\":\"/metadata/uid\"") && sent.get(0).contains("/spec/replicas")
                && !sent.get(0).contains("/status"), sent.get(0));
    }

    @Test
    void theAdapterIsNamedByItsAuthor() {
        DesiredStateReconciler<V1Deployment> author = (resource, context) -> resource;
        assertEquals(author.getClass().getName(), new DesiredStateAdapter<>(author).toString());
    }
}
