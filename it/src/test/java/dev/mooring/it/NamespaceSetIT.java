package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Context;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.informer.Informer;
import dev.mooring.engine.kube.Selectors;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A controller watching a set of namespaces, the set changed while it runs: the namespace that
 * leaves is no longer watched (its informers stop, its objects get no pass, its children stay),
 * the one that joins is listed and reconciled, all without a restart.
 */
class NamespaceSetIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String MANAGED = "app.kubernetes.io/managed-by";

    /** Ensures a labelled Secret per ConfigMap; counts the passes of each key. */
    static final class Mirroring implements Reconciler<V1ConfigMap> {
        final Map<ObjectKey, AtomicInteger> passes = new ConcurrentHashMap<>();

        @Override
        public Result reconcile(V1ConfigMap map, Context<V1ConfigMap> context) {
            context.ensure(new V1Secret().apiVersion("v1").kind("Secret")
                    .metadata(new V1ObjectMeta().name(map.getMetadata().getName() + "-mirror").labels(Map.of(MANAGED, "mirror")))
                    .stringData(map.getData()));
            passes.computeIfAbsent(ObjectKey.of(map), key -> new AtomicInteger()).incrementAndGet();
            return Result.done();
        }

        int of(String namespace) {
            return passes.getOrDefault(new ObjectKey(namespace, "x"), new AtomicInteger()).get();
        }
    }

    @Test
    void theNamespacesChangeWhileTheControllerRuns() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String a = Testbed.createNamespace(core, "set-a");
        String b = Testbed.createNamespace(core, "set-b");
        String c = Testbed.createNamespace(core, "set-c");
        for (String namespace : List.of(a, b, c)) {
            core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("x"))
                    .data(Map.of("v", "1"))).execute();
        }
        Mirroring reconciler = new Mirroring();
        ControllerDefinition definition = Engine.definition("mirror", V1ConfigMap.class, "", null, 1, List.of(V1Secret.class), List.of())
                .toBuilder().namespaces(new LinkedHashSet<>(List.of(a, b))).ownsSelectors(Selectors.labels(MANAGED + "=mirror")).build();
        try (Engine engine = new Engine(Testbed.client(), Testbed.client(), List.of(new OperatorRuntime.Entry(definition, reconciler)))) {
            engine.awaitReady();
            Eventually.await("both mirrors", TIMEOUT, () -> secret(core, a) && secret(core, b));
            assertEquals(0, reconciler.of(c), "c is not watched yet");
            assertFalse(secret(core, c));
            assertEquals(Set.of(a, b), engine.runtime.namespacesOf("mirror"));

            engine.runtime.watchNamespaces("mirror", Set.of(b, c));

            Eventually.await("the mirror in the namespace that joined", TIMEOUT, () -> secret(core, c));
            assertEquals(Set.of(b, c), engine.runtime.namespacesOf("mirror"));
            assertEquals(List.of(), scopes(engine).stream().filter(scope -> scope.contains(" in " + a)).toList(),
                    "no informer of the namespace that left runs");
            assertEquals(2, scopes(engine).stream().filter(scope -> scope.contains(" in " + c)).count(), "ConfigMaps and Secrets of c");

            int passesOfA = reconciler.of(a);
            core.replaceNamespacedConfigMap("x", a, new V1ConfigMap().metadata(new V1ObjectMeta().name("x").namespace(a))
                    .data(Map.of("v", "2"))).execute();
            int passesOfB = reconciler.of(b);
            core.replaceNamespacedConfigMap("x", b, new V1ConfigMap().metadata(new V1ObjectMeta().name("x").namespace(b))
                    .data(Map.of("v", "2"))).execute();
            // b's change was made after a's: by the time it has a pass, a's would have had one if a were still watched
            Eventually.await("the change in b reconciled", TIMEOUT, () -> reconciler.of(b) > passesOfB);
            assertEquals(passesOfA, reconciler.of(a), "the namespace that left gets no pass");
            assertTrue(secret(core, a), "its children stay: leaving the set deletes nothing");

            IllegalArgumentException single = assertThrows(IllegalArgumentException.class,
                    () -> engine.runtime.watchNamespaces("nothing", Set.of(a)));
            assertTrue(single.getMessage().contains("No controller named 'nothing'"), single.getMessage());

            engine.runtime.watchNamespaces("mirror", Set.of(a, b, c));
            Eventually.await("a watched again, its change reconciled", TIMEOUT, () -> reconciler.of(a) > passesOfA);
        }
    }

    @Test
    void inLibertyTheSetFollowsAVariableChangedWhileTheServerRuns() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String a = Testbed.createNamespace(core, "liberty-a");
        String b = Testbed.createNamespace(core, "liberty-b");
        for (String namespace : List.of(a, b)) {
            core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("x")
                    .labels(Map.of("example.com/mirror", "true"))).data(Map.of("v", "1"))).execute();
        }
        java.nio.file.Path usr = java.nio.file.Path.of(System.getProperty("mooring.it.failover.dir"), "namespaces");
        LibertyProcess server = LibertyProcess.start("namespaces", usr, java.nio.file.Path.of(System.getProperty("mooring.it.ear")),
                Map.of(), Map.of("namespaces.xml", variables(a)));
        try {
            Eventually.await("ready", TIMEOUT, () -> server.get("/health/ready"), answer -> answer.status() == 200);
            Eventually.await("the mirror in " + a, TIMEOUT, () -> mirror(core, a));
            assertFalse(mirror(core, b), b + " is not in the set yet");

            java.nio.file.Files.writeString(usr.resolve("servers/namespaces/configDropins/overrides/namespaces.xml"), variables(a + ", " + b));

            Eventually.await("the mirror in " + b + ", without a restart", TIMEOUT, () -> mirror(core, b));
            assertTrue(java.nio.file.Files.readString(server.log()).contains("Controller configmap-mirror now watches namespaces ["
                    + a + ", " + b + "]"), "the change is logged");
            assertEquals(200, server.get("/health/ready").status());
        } finally {
            server.command("stop");
        }
    }

    /** The drop-in that gives the mirror of the example EAR (annotated for all namespaces) a set instead, polled each second. */
    private static String variables(String namespaces) {
        return "<server>\n"
                + "  <variable name=\"mooring.controller.configmap-mirror.all-namespaces\" value=\"false\"/>\n"
                + "  <variable name=\"mooring.controller.configmap-mirror.namespaces\" value=\"" + namespaces + "\"/>\n"
                + "  <variable name=\"mooring.namespaces.poll-interval\" value=\"1s\"/>\n"
                + "</server>\n";
    }

    private static boolean mirror(CoreV1Api core, String namespace) throws Exception {
        return core.listNamespacedConfigMap(namespace).execute().getItems().stream()
                .anyMatch(map -> map.getMetadata().getName().equals("x-mirror"));
    }

    private static boolean secret(CoreV1Api core, String namespace) throws Exception {
        return core.listNamespacedSecret(namespace).execute().getItems().stream().anyMatch(s -> s.getMetadata().getName().equals("x-mirror"));
    }

    private static List<String> scopes(Engine engine) {
        return engine.runtime.informers().stream().map(Informer::describe).toList();
    }
}
