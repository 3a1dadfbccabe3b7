package dev.mooring.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.api.Result;
import dev.mooring.api.Stage;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerState;
import dev.mooring.engine.model.StagePlan;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The composition root: what a built runtime holds before it starts (no request is sent). */
class EngineTest {

    private final KubeHttp http = new KubeHttp(new ApiClient().setBasePath("http://api.invalid"));
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        executor.shutdownNow();
        scheduler.shutdownNow();
    }

    static class Staging {
        @Stage(value = "Configured", order = 10)
        public Result configure(V1ConfigMap map) {
            return Result.done();
        }
    }

    private static ControllerDefinition definition(String name) {
        return ControllerDefinition.builder(name, V1ConfigMap.class).namespace("ops").workers(1).resync(Duration.ofHours(10))
                .syncTimeout(Duration.ofSeconds(5)).shutdownTimeout(Duration.ofSeconds(5)).build();
    }

    @Test
    void theBuiltRuntimeHoldsEachControllerInOrderNotStarted() {
        OperatorRuntime runtime = Engine.builder(http, http).threads(executor, scheduler)
                .controller(definition("plain"), (map, context) -> Result.done())
                .controller(definition("staged"), new Staging(), StagePlan.of(Staging.class, V1ConfigMap.class),
                        dev.mooring.engine.model.BeanMethods.NONE)
                .build();
        assertEquals(List.of("plain", "staged"), runtime.statuses().stream().map(status -> status.name()).toList());
        assertEquals(List.of(ControllerState.STARTING, ControllerState.STARTING),
                runtime.statuses().stream().map(status -> status.state()).toList());
        assertEquals(0, runtime.informerCount(), "nothing is watched before start");
        assertEquals(List.of(java.util.Set.of(), java.util.Set.of("Configured", "Ready")),
                runtime.definitions().stream().map(ControllerDefinition::managedConditions).toList(),
                "a staged controller's passes may not set the conditions its stages manage");
    }

    @Test
    void twoControllersCannotShareAName() {
        Engine.Builder builder = Engine.builder(http, http).controller(definition("maps"), (map, context) -> Result.done());
        assertEquals("Controller name 'maps' is used by two controllers; give each its own @Controller(name = ...)",
                assertThrows(IllegalArgumentException.class,
                        () -> builder.controller(definition("maps"), (map, context) -> Result.done())).getMessage());
    }

    @Test
    void aRuntimeNeedsItsThreads() {
        assertEquals("Give the engine its threads with threads(executor, scheduler)",
                assertThrows(IllegalStateException.class, () -> Engine.builder(http, http).build()).getMessage());
    }
}
