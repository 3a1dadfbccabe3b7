package dev.mooring.it;

import dev.mooring.api.Reconciler;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.WatchMapper;
import dev.mooring.test.Eventually;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Mooring's engine embedded in a plain JUnit test (no Liberty), against the real testbed. The
 * test supplies plain executors where the server supplies managed ones.
 */
final class Engine implements AutoCloseable {

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
    final OperatorRuntime runtime;

    Engine(ApiClient requests, ApiClient watches, List<OperatorRuntime.Entry> entries) {
        this(requests, watches, entries, "default");
    }

    /** An engine whose operator namespace (for Events about cluster-scoped objects) is {@code operatorNamespace}. */
    Engine(ApiClient requests, ApiClient watches, List<OperatorRuntime.Entry> entries, String operatorNamespace) {
        this(requests, watches, entries, operatorNamespace, new OperatorRuntime.Retry(Duration.ofMillis(200), Duration.ofSeconds(2)));
    }

    /** An engine with these retry settings (the server's defaults are 1 s and 60 s). */
    Engine(ApiClient requests, ApiClient watches, List<OperatorRuntime.Entry> entries, String operatorNamespace,
            OperatorRuntime.Retry retry) {
        this(requests, watches, entries, operatorNamespace, retry, builder -> { });
    }

    /** An engine with these retry settings, whose builder {@code more} completes (read-your-writes, an observer). */
    Engine(ApiClient requests, ApiClient watches, List<OperatorRuntime.Entry> entries, String operatorNamespace,
            OperatorRuntime.Retry retry, java.util.function.Consumer<dev.mooring.engine.Engine.Builder> more) {
        dev.mooring.engine.Engine.Builder engine = dev.mooring.engine.Engine.builder(new KubeHttp(requests), new KubeHttp(watches))
                .threads(executor, scheduler).retry(retry).operatorNamespace(operatorNamespace);
        more.accept(engine);
        entries.forEach(engine::controller);
        runtime = engine.build();
        runtime.start();
    }

    /** An engine with one controller, on the shared testbed; watches are re-established after 5 s of silence. */
    static Engine of(ControllerDefinition definition, Reconciler<?> reconciler) {
        return new Engine(Testbed.client(), Testbed.client().setReadTimeout(5_000),
                List.of(new OperatorRuntime.Entry(definition, reconciler)));
    }

    static ControllerDefinition definition(String name, Class<? extends KubernetesObject> kind, String namespace,
            String selector, int workers, List<Class<? extends KubernetesObject>> owns, List<WatchMapper> watches) {
        return definition(name, kind, namespace, selector, workers, owns, watches, null);
    }

    static ControllerDefinition definition(String name, Class<? extends KubernetesObject> kind, String namespace,
            String selector, int workers, List<Class<? extends KubernetesObject>> owns, List<WatchMapper> watches,
            String finalizer) {
        return ControllerDefinition.builder(name, kind).namespace(namespace).labelSelector(selector).workers(workers)
                .resync(Duration.ofMinutes(5)).syncTimeout(Duration.ofSeconds(30)).shutdownTimeout(Duration.ofSeconds(5))
                .owns(owns).watches(watches).finalizer(finalizer).build();
    }

    void awaitReady() throws InterruptedException {
        Eventually.await("the engine ready (failures: " + runtime.failures() + ")", Duration.ofSeconds(40),
                () -> runtime.ready() || !runtime.healthy());
        if (!runtime.ready()) {
            throw new AssertionError("the engine failed: " + runtime.failures());
        }
    }

    @Override
    public void close() {
        runtime.stop();
        executor.shutdownNow();
        scheduler.shutdownNow();
    }
}
