package dev.mooring.engine.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.Result;
import dev.mooring.api.Stage;
import dev.mooring.api.Wait;
import dev.mooring.engine.RecordingClient;
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

    private static ControllerView view(Set<String> managedConditions) {
        return new ControllerView("staged", new ControllerCaches("staged"), key -> { }, Clock.systemUTC(), managedConditions, new StatusWrites());
    }

    private static ReconcileContext<V1ConfigMap> pass(V1ConfigMap map) {
        return new ReconcileContext<>(view(Set.of()), new ObjectKey("ops", "a"), map, new RecordingClient());
    }

    @Test
    void everyPassStartsAgainFromTheFirstStageWhichRepairsItsDrift() throws Exception {
        Staged bean = new Staged();
        StagePipeline<V1ConfigMap> pipeline = new StagePipeline<>(StagePlan.of(Staged.class, V1ConfigMap.class), bean);
        V1ConfigMap map = new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name("a")).data(new java.util.HashMap<>());
        map.getData().put("config", "v1");

        assertThrows(Wait.class, () -> pipeline.run(map, pass(map)));
        assertEquals(List.of("Configured", "Served"), bean.calls, "the second stage waits");

        bean.calls.clear();
        map.getData().put("config", "drifted"); // someone changed what the first stage had done
        bean.served = true;
        pipeline.run(map, pass(map));
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
        ReconcileContext<io.kubernetes.client.openapi.models.V1Deployment> pass = new ReconcileContext<>(view(pipeline.managedConditions()),
                new ObjectKey("ops", "a"), deployment, client);
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> pipeline.run(deployment, pass));
        assertEquals("the database refused", thrown.getMessage(), "the stage's failure goes on to the runner (retried)");
        assertEquals(0, bean.exposed, "no stage runs after a failed one");
        assertEquals(List.of(new EventRecorder.Queued(dev.mooring.api.EventType.WARNING, "ReconcileFailed", "Served",
                "Served failed: IllegalStateException: the database refused")), pass.queuedEvents());
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
                "Served", "False ReconcileFailed: Served failed: IllegalStateException: the database refused",
                "Exposed", "Unknown DependencyNotReady: Served is not ready",
                "Ready", "False ReconcileFailed: Served failed: IllegalStateException: the database refused"), conditions);

        ReconcileContext<io.kubernetes.client.openapi.models.V1Deployment> last = new ReconcileContext<>(view(pipeline.managedConditions()),
                new ObjectKey("ops", "a"), deployment, client, new dev.mooring.api.Attempt(3, true));
        assertThrows(IllegalStateException.class, () -> pipeline.run(deployment, last));
        last.persistStatus();
        String gaveUp = client.requests.get(client.requests.size() - 1);
        assertTrue(gaveUp.contains("\"message\":\"Served failed: IllegalStateException: the database refused (attempt 3, the last: given up"
                + " until the object changes)\",\"reason\":\"RetriesExhausted\",\"status\":\"False\",\"type\":\"Ready\""), gaveUp);
        assertTrue(gaveUp.contains("\"reason\":\"ReconcileFailed\",\"status\":\"False\",\"type\":\"Served\""),
                "the stage's own condition says what failed: " + gaveUp);

        bean.failure = new dev.mooring.api.TerminalException("no such plan");
        ReconcileContext<io.kubernetes.client.openapi.models.V1Deployment> terminal = new ReconcileContext<>(view(pipeline.managedConditions()),
                new ObjectKey("ops", "a"), deployment, client, new dev.mooring.api.Attempt(3, true));
        assertThrows(dev.mooring.api.TerminalException.class, () -> pipeline.run(deployment, terminal));
        assertEquals("TerminalError", terminal.queuedEvents().get(0).reason(), "a terminal failure says so, last attempt or not");

        bean.failure = new dev.mooring.api.Wait("Starting", "the database starts");
        ReconcileContext<io.kubernetes.client.openapi.models.V1Deployment> waiting = new ReconcileContext<>(view(pipeline.managedConditions()),
                new ObjectKey("ops", "a"), deployment, client);
        try {
            pipeline.run(deployment, waiting);
        } catch (dev.mooring.api.Wait expected) {
            // a Wait may go on to the runner, which requeues without backoff
        }
        assertEquals(0, bean.exposed, "no stage runs after one that waits");
        bean.failure = null;
        ReconcileContext<io.kubernetes.client.openapi.models.V1Deployment> succeeding = new ReconcileContext<>(view(pipeline.managedConditions()),
                new ObjectKey("ops", "a"), deployment, client);
        pipeline.run(deployment, succeeding);
        assertEquals(1, bean.exposed, "the later stage runs once the earlier succeeds");
        succeeding.persistStatus();
        String written = client.requests.get(client.requests.size() - 1);
        assertTrue(written.contains("\"message\":\"all stages succeeded\",\"reason\":\"Reconciled\",\"status\":\"True\",\"type\":\"Ready\""),
                written);
    }

    /** Requeues of three stages (the last reads its context), and a stage of cases chosen by the object's data. */
    public static final class Branching implements dev.mooring.api.Cleanup<V1ConfigMap> {
        final List<String> calls = new ArrayList<>();
        Throwable thrownByOtherwise;

        @Stage(value = "First", order = 1)
        public Result first(V1ConfigMap map) {
            return Result.requeueAfter(java.time.Duration.ofSeconds(30));
        }

        @Stage(value = "Second", order = 2)
        public Result second(V1ConfigMap map) {
            return Result.requeueAfter(java.time.Duration.ofSeconds(10));
        }

        @Stage(value = "Third", order = 3)
        public Result third(V1ConfigMap map, dev.mooring.api.Context<V1ConfigMap> context) {
            calls.add("Third of " + context.key().name());
            return Result.requeueAfter(java.time.Duration.ofSeconds(20));
        }

        @Stage(value = "Sized", order = 4)
        @dev.mooring.api.Case(when = "small", priority = 5)
        public void smallOne(V1ConfigMap map) {
            calls.add("small");
        }

        @Stage(value = "Sized", order = 4)
        @dev.mooring.api.Case(when = "marked", priority = 1)
        public void markedOne(V1ConfigMap map) {
            calls.add("marked");
        }

        @Stage(value = "Sized", order = 4)
        @dev.mooring.api.Otherwise
        public void neither(V1ConfigMap map) throws Throwable {
            calls.add("otherwise");
            if (thrownByOtherwise != null) {
                throw thrownByOtherwise;
            }
        }

        public boolean small(V1ConfigMap map) {
            return map.getData().containsKey("small");
        }

        public boolean marked(V1ConfigMap map) {
            return map.getData().containsKey("marked");
        }

        @Override
        public void cleanup(V1ConfigMap resource, dev.mooring.api.Context<V1ConfigMap> context) {
            calls.add("cleanup");
        }
    }

    private static V1ConfigMap map(String... keys) {
        V1ConfigMap map = new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name("a")).data(new java.util.HashMap<>());
        for (String key : keys) {
            map.getData().put(key, "");
        }
        return map;
    }

    @Test
    void thePassRequeuesAfterTheShortestRequeueAnyStageAsked() throws Exception {
        Branching bean = new Branching();
        StagePipeline<V1ConfigMap> pipeline = new StagePipeline<>(StagePlan.of(Branching.class, V1ConfigMap.class), bean);
        V1ConfigMap map = map();
        assertEquals(Result.requeueAfter(java.time.Duration.ofSeconds(10)), pipeline.run(map, pass(map)),
                "30 s, then 10 s, then 20 s: the pass comes back after 10 s");
        assertEquals(List.of("Third of a", "otherwise"), bean.calls, "a stage with a context parameter gets the pass's");
    }

    @Test
    void theFirstMatchingCaseByPriorityRunsAndOtherwiseOnlyWhenNoneMatches() throws Exception {
        Branching bean = new Branching();
        StagePipeline<V1ConfigMap> pipeline = new StagePipeline<>(StagePlan.of(Branching.class, V1ConfigMap.class), bean);
        for (V1ConfigMap map : List.of(map("small", "marked"), map("marked"), map())) {
            pipeline.run(map, pass(map));
        }
        assertEquals(List.of("small", "marked", "otherwise"), bean.calls.stream().filter(call -> !call.startsWith("Third")).toList(),
                "both match: the higher priority only; one matches: that one; none: otherwise");
    }

    /** A stage of one case and no otherwise. */
    public static final class OneCase {
        @Stage(value = "Sized", order = 1)
        @dev.mooring.api.Case(when = "small", priority = 1)
        public void smallOne(V1ConfigMap map) {
        }

        public boolean small(V1ConfigMap map) {
            return map.getData().containsKey("small");
        }
    }

    @Test
    void aStageWhoseCasesAllMissWithoutOtherwiseIsTerminalAndTheBeanMustImplementCleanupToBeAskedForIt() throws Exception {
        StagePipeline<V1ConfigMap> pipeline = new StagePipeline<>(StagePlan.of(OneCase.class, V1ConfigMap.class), new OneCase());
        V1ConfigMap map = map();
        dev.mooring.api.TerminalException none = assertThrows(dev.mooring.api.TerminalException.class, () -> pipeline.run(map, pass(map)));
        assertEquals("No case of stage Sized matched; add an @Otherwise method if this is expected", none.getMessage());
        assertEquals(Result.done(), pipeline.run(map("small"), pass(map("small"))));
    }

    @Test
    void whatAStageThrowsGoesOnUnwrappedErrorsIncluded() {
        Branching bean = new Branching();
        StagePipeline<V1ConfigMap> pipeline = new StagePipeline<>(StagePlan.of(Branching.class, V1ConfigMap.class), bean);
        V1ConfigMap map = map();
        bean.thrownByOtherwise = new StackOverflowError("deep");
        assertEquals("deep", assertThrows(StackOverflowError.class, () -> pipeline.run(map, pass(map))).getMessage());
        bean.thrownByOtherwise = new java.io.IOException("closed");
        assertEquals("closed", assertThrows(java.io.IOException.class, () -> pipeline.run(map, pass(map))).getMessage());
    }
}
