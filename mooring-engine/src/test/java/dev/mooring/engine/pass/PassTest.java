package dev.mooring.engine.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Cleanup;
import dev.mooring.api.Context;
import dev.mooring.api.DesiredStateReconciler;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.engine.RecordingClient;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.StagePlan;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The kind of pass {@link Pass#of} chooses for each kind of bean, with and without a finalizer. */
class PassTest {

    private static final String FINALIZER = "example.com/cleanup";

    private final RecordingClient client = new RecordingClient();

    @Test
    void aPlainReconcilerIsPassedItself() throws Exception {
        List<String> calls = new ArrayList<>();
        Pass<V1ConfigMap> pass = Pass.of(definition(null), (Reconciler<V1ConfigMap>) (map, context) -> {
            calls.add("reconcile " + map.getMetadata().getName());
            return Result.requeueAfter(java.time.Duration.ofSeconds(3));
        }, null);
        assertEquals(Result.requeueAfter(java.time.Duration.ofSeconds(3)), pass.run(map(false), context()));
        assertEquals(List.of("reconcile a"), calls);
    }

    @Test
    void aStagedBeanRunsItsStagesAndItsCleanupInsideTheFinalizerProtocol() throws Exception {
        StagePipelineTest.Branching bean = new StagePipelineTest.Branching();
        StagePlan plan = StagePlan.of(StagePipelineTest.Branching.class, V1ConfigMap.class);
        assertInstanceOf(StagePipeline.class, Pass.of(definition(null), bean, plan), "without a finalizer, the stages alone");

        Pass<V1ConfigMap> pass = Pass.of(definition(FINALIZER), bean, plan);
        assertInstanceOf(FinalizerPass.class, pass);
        pass.run(map(true), context());
        assertEquals(List.of("cleanup"), bean.calls, "cleanup goes to the bean, no stage runs");
        assertEquals(List.of("REMOVE FINALIZER ops/a " + FINALIZER), client.requests);
    }

    @Test
    void aDesiredStateReconcilerWithCleanupGetsTheFinalizerProtocolToo() throws Exception {
        CleaningDesiredState bean = new CleaningDesiredState();
        assertInstanceOf(DesiredStateAdapter.class, Pass.of(definition(null), bean, null));

        Pass<V1ConfigMap> pass = Pass.of(definition(FINALIZER), bean, null);
        pass.run(map(false), context());
        assertEquals(List.of("ADD FINALIZER ops/a " + FINALIZER), client.requests, "the finalizer first");
        assertEquals(List.of("desired a"), bean.calls);
        pass.run(map(true), context());
        assertEquals(List.of("desired a", "cleanup a"), bean.calls);
        assertTrue(client.requests.contains("REMOVE FINALIZER ops/a " + FINALIZER), client.requests.toString());
    }

    @Test
    void theStatusOfThePassThatAddsTheFinalizerIsWrittenFromTheVersionThatWriteMadeWithNoRead() throws Exception {
        client.stored.add(map(false));
        Pass<V1ConfigMap> pass = Pass.of(definition(FINALIZER), new StatusWriting(), null);
        ReconcileContext<V1ConfigMap> context = context();
        pass.run(map(false), context);
        context.persistStatus();
        assertEquals(2, client.requests.size(), client.requests.toString());
        assertEquals("ADD FINALIZER ops/a " + FINALIZER, client.requests.get(0));
        assertTrue(client.requests.get(1).startsWith("PATCH status ops/a ")
                && client.requests.get(1).contains("{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"2\"}"),
                "guarded by the version the finalizer's write made: " + client.requests.get(1));
    }

    /** A reconciler with cleanup that stages a condition. */
    static final class StatusWriting implements Reconciler<V1ConfigMap>, Cleanup<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap map, Context<V1ConfigMap> context) {
            context.condition("Synced", "True", "Copied", "copied");
            return Result.done();
        }

        @Override
        public void cleanup(V1ConfigMap map, Context<V1ConfigMap> context) {
        }
    }

    @Test
    void aBeanOfNoKnownKindIsRefusedByName() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Pass.of(definition(null), new Object(), null));
        assertEquals("java.lang.Object of controller maps is neither a Reconciler, a DesiredStateReconciler nor Staged",
                refused.getMessage());
    }

    /** A desired-state reconciler that also cleans up. */
    static final class CleaningDesiredState implements DesiredStateReconciler<V1ConfigMap>, Cleanup<V1ConfigMap> {
        final List<String> calls = new ArrayList<>();

        @Override
        public V1ConfigMap desired(V1ConfigMap map, Context<V1ConfigMap> context) {
            calls.add("desired " + map.getMetadata().getName());
            return map;
        }

        @Override
        public void cleanup(V1ConfigMap map, Context<V1ConfigMap> context) {
            calls.add("cleanup " + map.getMetadata().getName());
        }
    }

    private static ControllerDefinition definition(String finalizer) {
        return ControllerDefinition.builder("maps", V1ConfigMap.class).namespace("ops").finalizer(finalizer).build();
    }

    private ReconcileContext<V1ConfigMap> context() {
        return new ReconcileContext<>(new ControllerView("maps", new ControllerCaches("maps"), key -> { }, Clock.systemUTC(),
                Set.of(), new StatusWrites()), new ObjectKey("ops", "a"), map(false), client);
    }

    private static V1ConfigMap map(boolean deleting) {
        V1ObjectMeta metadata = new V1ObjectMeta().namespace("ops").name("a").uid("uid-a").resourceVersion("1");
        if (deleting) {
            metadata.deletionTimestamp(OffsetDateTime.parse("2026-12-07T10:00:00Z")).finalizers(new ArrayList<>(List.of(FINALIZER)));
        }
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(metadata).data(new java.util.HashMap<>());
    }
}
