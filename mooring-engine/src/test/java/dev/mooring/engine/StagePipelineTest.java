package dev.mooring.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.Result;
import dev.mooring.api.Stage;
import dev.mooring.api.Wait;
import dev.mooring.engine.model.StagePlan;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A staged reconciler's passes: each starts again from the first stage, so what drifted in an earlier stage is repaired. */
class StagePipelineTest {

    /** Two stages; the second waits until told otherwise; the first notes what it repaired. */
    public static final class Staged {
        final List<String> calls = new ArrayList<>();
        boolean served;

        @Stage(value = "Configured", order = 1)
        public void configure(V1ConfigMap map) {
            calls.add("Configured");
            if (!"v1".equals(map.getData().get("config"))) {
                map.getData().put("config", "v1"); // the first stage's own repair of drift
                calls.add("repaired");
            }
        }

        @Stage(value = "Served", order = 2)
        public Result serve(V1ConfigMap map) {
            calls.add("Served");
            if (!served) {
                throw new Wait("NotServed", "not served yet");
            }
            return Result.done();
        }
    }

    private static ReconcileContext<V1ConfigMap> pass(V1ConfigMap map) {
        return new ReconcileContext<>("staged", new ObjectKey("ops", "a"), map, new RecordingClient(), Map.of(), Map.of(),
                key -> { }, Clock.systemUTC(), Set.of());
    }

    @Test
    void everyPassStartsAgainFromTheFirstStageWhichRepairsItsDrift() throws Exception {
        Staged bean = new Staged();
        StagePipeline<V1ConfigMap> pipeline = new StagePipeline<>(StagePlan.of(Staged.class, V1ConfigMap.class), bean);
        V1ConfigMap map = new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name("a")).data(new java.util.HashMap<>());
        map.getData().put("config", "v1");

        assertThrows(Wait.class, () -> pipeline.reconcile(map, pass(map)));
        assertEquals(List.of("Configured", "Served"), bean.calls, "the second stage waits");

        bean.calls.clear();
        map.getData().put("config", "drifted"); // someone changed what the first stage had done
        bean.served = true;
        pipeline.reconcile(map, pass(map));
        assertEquals(List.of("Configured", "repaired", "Served"), bean.calls,
                "the next pass runs the first stage again, not only from the stage that waited");
        assertEquals("v1", map.getData().get("config"));
    }

    /** Three stages of a Deployment; the second fails with what {@code failure} holds. */
    public static final class Failing {
        RuntimeException failure = new IllegalStateException("the database refused");

        @Stage(value = "Configured", order = 1)
        public void configure(io.kubernetes.client.openapi.models.V1Deployment deployment) {
        }

        @Stage(value = "Served", order = 2)
        public void serve(io.kubernetes.client.openapi.models.V1Deployment deployment) {
            if (failure != null) {
                throw failure;
            }
        }

        int exposed;

        @Stage(value = "Exposed", order = 3)
        public void expose(io.kubernetes.client.openapi.models.V1Deployment deployment) {
            exposed++;
        }
    }

    @Test
    void aFailingStageIsReportedWithItsReasonTheLaterStagesBlockedAndAWarningEvent() throws Exception {
        Failing bean = new Failing();
        StagePipeline<io.kubernetes.client.openapi.models.V1Deployment> pipeline = new StagePipeline<>(
                StagePlan.of(Failing.class, io.kubernetes.client.openapi.models.V1Deployment.class), bean);
        assertEquals(Set.of("Configured", "Served", "Exposed", "Ready"), pipeline.managedConditions());
        io.kubernetes.client.openapi.models.V1Deployment deployment = new io.kubernetes.client.openapi.models.V1Deployment()
                .apiVersion("apps/v1").kind("Deployment").metadata(new V1ObjectMeta().namespace("ops").name("a").uid("u-a").resourceVersion("7").generation(3L))
                .status(new io.kubernetes.client.openapi.models.V1DeploymentStatus());
        RecordingClient client = new RecordingClient();
        client.stored.add(deployment);
        ReconcileContext<io.kubernetes.client.openapi.models.V1Deployment> pass = new ReconcileContext<>("staged", new ObjectKey("ops", "a"),
                deployment, client, Map.of(), Map.of(), key -> { }, Clock.systemUTC(), pipeline.managedConditions());
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> pipeline.reconcile(deployment, pass));
        assertEquals("the database refused", thrown.getMessage(), "the stage's failure goes on to the runner (retried)");
        assertEquals(0, bean.exposed, "no stage runs after a failed one");
        assertEquals(List.of(new EventRecorder.Queued(dev.mooring.api.EventType.WARNING, "ReconcileFailed", "Served",
                "Served failed (IllegalStateException); see controller logs")), pass.queuedEvents());
        pass.persistStatus();
        String patch = client.requests.get(client.requests.size() - 1);
        com.google.gson.JsonArray operations = com.google.gson.JsonParser.parseString(patch.substring(patch.indexOf('['))).getAsJsonArray();
        java.util.Map<String, String> conditions = new java.util.LinkedHashMap<>();
        operations.get(2).getAsJsonObject().getAsJsonObject("value").getAsJsonArray("conditions").forEach(element -> {
            com.google.gson.JsonObject condition = element.getAsJsonObject();
            conditions.put(condition.get("type").getAsString(), condition.get("status").getAsString() + " "
                    + condition.get("reason").getAsString() + ": " + condition.get("message").getAsString());
        });
        assertEquals(Map.of("Configured", "True Succeeded: ",
                "Served", "False ReconcileFailed: Served failed (IllegalStateException); see controller logs",
                "Exposed", "Unknown DependencyNotReady: Served is not ready",
                "Ready", "False ReconcileFailed: Served failed (IllegalStateException); see controller logs"), conditions);

        bean.failure = new dev.mooring.api.TerminalException("no such plan");
        ReconcileContext<io.kubernetes.client.openapi.models.V1Deployment> terminal = new ReconcileContext<>("staged",
                new ObjectKey("ops", "a"), deployment, client, Map.of(), Map.of(), key -> { }, Clock.systemUTC(), pipeline.managedConditions());
        assertThrows(dev.mooring.api.TerminalException.class, () -> pipeline.reconcile(deployment, terminal));
        assertEquals("TerminalError", terminal.queuedEvents().get(0).reason(), "a terminal failure says so");

        bean.failure = new dev.mooring.api.Wait("Starting", "the database starts");
        ReconcileContext<io.kubernetes.client.openapi.models.V1Deployment> waiting = new ReconcileContext<>("staged",
                new ObjectKey("ops", "a"), deployment, client, Map.of(), Map.of(), key -> { }, Clock.systemUTC(), pipeline.managedConditions());
        try {
            pipeline.reconcile(deployment, waiting);
        } catch (dev.mooring.api.Wait expected) {
            // a Wait may go on to the runner, which requeues without backoff
        }
        assertEquals(0, bean.exposed, "no stage runs after one that waits");
        bean.failure = null;
        pipeline.reconcile(deployment, new ReconcileContext<>("staged", new ObjectKey("ops", "a"), deployment, client, Map.of(), Map.of(),
                key -> { }, Clock.systemUTC(), pipeline.managedConditions()));
        assertEquals(1, bean.exposed, "the later stage runs once the earlier succeeds");
    }
}
