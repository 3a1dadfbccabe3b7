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
}
