package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.api.Context;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.kube.Selectors;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.examples.snippets.Widget;
import dev.mooring.it.widget.WidgetCrd;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The owned kinds' caches hold only what the owned selectors select, as the API server applies
 * them to the lists and watches: in a namespace full of unrelated ConfigMaps, the controller's
 * cache holds its own labelled child, and a field selector leaves out what it names.
 */
class SelectorsIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String MANAGED = "app.kubernetes.io/managed-by";

    /** Ensures one labelled child; records the names of the ConfigMaps its cache holds. */
    static final class Labelling implements Reconciler<Widget> {
        final Map<String, TreeSet<String>> cached = new ConcurrentHashMap<>();

        @Override
        public Result reconcile(Widget widget, Context<Widget> context) {
            String namespace = widget.getMetadata().getNamespace();
            context.ensure(new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                    .metadata(new V1ObjectMeta().name(widget.getMetadata().getName() + "-config").labels(Map.of(MANAGED, "widgets")))
                    .data(Map.of("message", widget.getSpec().message)));
            TreeSet<String> names = new TreeSet<>();
            context.cached(V1ConfigMap.class).list(namespace).forEach(map -> names.add(map.getMetadata().getName()));
            cached.put(widget.getMetadata().getName(), names);
            return Result.done();
        }
    }

    @Test
    void theOwnedCacheHoldsOnlyTheSelectedChildren() throws Exception {
        WidgetCrd.install(Testbed.client());
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "selectors");
        for (int i = 0; i < 5; i++) { // unrelated, one of them with the label but excluded by the field selector
            core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("unrelated-" + i)
                    .labels(i == 0 ? Map.of(MANAGED, "widgets") : Map.of("app", "other")))).execute();
        }
        Labelling reconciler = new Labelling();
        ControllerDefinition definition = Engine.definition("widgets", Widget.class, namespace, null, 1, List.of(V1ConfigMap.class),
                List.of()).toBuilder().ownsSelectors(new Selectors(MANAGED + "=widgets", "metadata.name!=unrelated-0")).build();
        try (Engine engine = new Engine(Testbed.client(), Testbed.client(), List.of(new OperatorRuntime.Entry(definition, reconciler)))) {
            engine.awaitReady();
            new dev.mooring.engine.kube.KubeHttp(Testbed.client()).send("POST", "/apis/example.com/v1/namespaces/" + namespace + "/widgets",
                    Map.of(), "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},"
                            + "\"spec\":{\"message\":\"hello\"}}", "application/json");
            // the child's own event reconciles the widget again, by then with the child cached
            Eventually.await("the child cached", TIMEOUT, () -> reconciler.cached.getOrDefault("w", new TreeSet<>()),
                    names -> names.contains("w-config"));
            assertEquals(new TreeSet<>(List.of("w-config")), reconciler.cached.get("w"),
                    "of six ConfigMaps, the cache holds the one labelled child the field selector leaves in");
        }
    }
}
