package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerState;
import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.engine.model.WatchMapper;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fatal errors are not retried in silence: the controller fails, the runtime reports it as
 * unhealthy, and the cause names what is wrong.
 */
class EngineFailureIT {

    private static Path rbacRunDir;
    private static Properties rbac;

    /** A second testbed enforcing RBAC, for the 403 case. */
    @BeforeAll
    static void startRbacTestbed() throws Exception {
        rbacRunDir = Testbed.runDir().resolveSibling("testbed-rbac");
        rbac = Testbed.up(rbacRunDir, "--authorization-mode=RBAC");
    }

    @AfterAll
    static void stopRbacTestbed() throws Exception {
        Testbed.down(rbacRunDir);
    }

    @Test
    void badCredentialsFailTheControllerWith401() throws Exception {
        ApiClient client = Config.fromToken(Testbed.env().getProperty("TESTBED_SERVER"), "not-a-valid-token", false);
        assertFails(client, definition(V1ConfigMap.class, "default"), "401");
    }

    @Test
    void aTokenThatMayNotListFailsTheControllerWith403() throws Exception {
        String token = Testbed.token(rbacRunDir, "operators", "no-rights");
        ApiClient client = Config.fromToken(rbac.getProperty("TESTBED_SERVER"), token, false);
        assertFails(client, definition(V1ConfigMap.class, "default"), "403");
    }

    /**
     * A token that may list but not watch: the controller fails naming the denied verb, and its
     * informer no longer reports itself connected (health data, the connected gauge).
     */
    @Test
    void aTokenThatMayListButNotWatchFailsTheControllerNamingTheVerbAndItsInformerIsNotConnected() throws Exception {
        KubeHttpAdmin.grant(rbacRunDir, "list-only", "{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\"],\"verbs\":[\"get\",\"list\"]}");
        String token = Testbed.token(rbacRunDir, "operators", "list-only");
        ApiClient client = Config.fromToken(rbac.getProperty("TESTBED_SERVER"), token, false);
        try (Engine engine = new Engine(client, client, List.of(new OperatorRuntime.Entry(definition(V1ConfigMap.class, "default"),
                new Recorder())))) {
            Eventually.await("the controller failed", Duration.ofSeconds(40), () -> !engine.runtime.healthy());
            String failure = engine.runtime.failures().get(0);
            assertTrue(failure.contains("403") && failure.contains("cannot watch resource \"configmaps\""), failure);
            assertFalse(engine.runtime.informers().isEmpty());
            engine.runtime.informers().forEach(informer -> assertFalse(informer.connected(), informer.describe() + " connected"));
        }
    }

    @Test
    void aKindTheServerDoesNotServeFailsTheControllerWith404() throws Exception {
        assertFails(Testbed.client(), definition(V1Node.class, null), "does not serve kind Node");
    }

    @Test
    void anInitialListSlowerThanTheSyncTimeoutFailsTheControllerNamingIt() throws Exception {
        String namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "slow-list");
        String list = "GET /api/v1/namespaces/" + namespace + "/configmaps";
        try (HoldingProxy server = new HoldingProxy(Testbed.client(),
                request -> request.startsWith(list) && !request.contains("watch=true"))) {
            ControllerDefinition definition = ControllerDefinition.builder("slow-list", V1ConfigMap.class).namespace(namespace)
                    .workers(1).resync(Duration.ofMinutes(5)).syncTimeout(Duration.ofSeconds(2))
                    .shutdownTimeout(Duration.ofSeconds(5)).build();
            assertFails(server.client(), definition, "The initial list of ConfigMap in " + namespace + " did not complete within"
                    + " the controller's sync-timeout of 2.0 s (mooring.controller.slow-list.sync-timeout)");
            assertTrue(server.held() >= 1, "the list was sent and held");
        }
    }

    /**
     * A controller's passes wait for the initial list of every kind it reads, the last watched
     * kind's included, not only the primary's: its caches are complete when it first reads them.
     */
    @Test
    void noPassRunsUntilTheInitialListOfEveryWatchedKindIsIn() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "all-lists");
        core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("waiting"))).execute();
        String accounts = "GET /api/v1/namespaces/" + namespace + "/serviceaccounts";
        try (HoldingProxy server = new HoldingProxy(Testbed.client(),
                request -> request.startsWith(accounts) && !request.contains("watch=true"))) {
            ControllerDefinition definition = Engine.definition("all-lists", V1ConfigMap.class, namespace, null, 1, List.of(V1Secret.class),
                    List.of(new WatchMapper(io.kubernetes.client.openapi.models.V1ServiceAccount.class, "none", account -> List.of())));
            Recorder recorder = new Recorder();
            try (Engine engine = new Engine(server.client(), server.client(), List.of(new OperatorRuntime.Entry(definition, recorder)))) {
                Eventually.await("the ServiceAccounts' initial list sent and held", Duration.ofSeconds(30), () -> server.held() >= 1);
                Eventually.consistently("no pass while one watched kind's initial list is out", Duration.ofSeconds(3),
                        () -> recorder.passes.isEmpty() && !engine.runtime.ready());
                server.release();
                Eventually.await("the pass once every list is in", Duration.ofSeconds(30), () -> !recorder.passes.isEmpty());
            }
        }
    }

    @Test
    void aMapperThatThrowsFailsTheController() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "mapper");
        WatchMapper broken = new WatchMapper(V1Secret.class, "BrokenMapper.map", object -> {
            throw new IllegalStateException("mapper bug");
        });
        ControllerDefinition definition = Engine.definition("mapper", V1ConfigMap.class, namespace, null, 1, List.of(),
                List.of(broken));
        try (Engine engine = Engine.of(definition, new Recorder())) {
            engine.awaitReady();
            core.createNamespacedSecret(namespace, new V1Secret().metadata(new V1ObjectMeta().name("s"))
                    .stringData(Map.of("k", "v"))).execute();
            Eventually.await("the controller failed", Duration.ofSeconds(30), () -> !engine.runtime.healthy());
            ControllerStatus status = engine.runtime.statuses().get(0);
            assertEquals(ControllerState.FAILED, status.state());
            assertTrue(status.failure().contains("BrokenMapper.map") && status.failure().contains("mapper bug"), status.failure());
        }
    }

    @Test
    void oneFailingControllerStopsItsSiblings() throws Exception {
        ControllerDefinition good = definition(V1ConfigMap.class, "default");
        ControllerDefinition bad = Engine.definition("nodes", V1Node.class, null, null, 1, List.of(), List.of());
        try (Engine engine = new Engine(Testbed.client(), Testbed.client(),
                List.of(new OperatorRuntime.Entry(good, new Recorder()), new OperatorRuntime.Entry(bad, (r, c) -> null)))) {
            Eventually.await("the runtime failed", Duration.ofSeconds(30), () -> !engine.runtime.healthy());
            Eventually.await("the sibling stopped", Duration.ofSeconds(30),
                    () -> engine.runtime.statuses().get(0).state() == ControllerState.STOPPED);
            assertFalse(engine.runtime.ready());
            assertEquals(ControllerState.FAILED, engine.runtime.statuses().get(1).state());
        }
    }

    private static ControllerDefinition definition(Class<? extends io.kubernetes.client.common.KubernetesObject> kind,
            String namespace) {
        return Engine.definition("failing", kind, namespace, null, 1, List.of(), List.of());
    }

    private static void assertFails(ApiClient client, ControllerDefinition definition, String expected) throws Exception {
        try (Engine engine = new Engine(client, client, List.of(new OperatorRuntime.Entry(definition, new Recorder())))) {
            Eventually.await("the controller failed", Duration.ofSeconds(40), () -> !engine.runtime.healthy());
            assertFalse(engine.runtime.ready());
            ControllerStatus status = engine.runtime.statuses().get(0);
            assertEquals(ControllerState.FAILED, status.state());
            assertTrue(status.failure().contains(expected), "failure: " + status.failure());
            assertTrue(engine.runtime.failures().get(0).contains(expected), "failures: " + engine.runtime.failures());
        }
    }

    /** Binds ServiceAccount operators/name to a ClusterRole of one rule, on the testbed of {@code runDir}. */
    private static final class KubeHttpAdmin {
        static void grant(Path runDir, String name, String rule) throws Exception {
            dev.mooring.engine.kube.KubeHttp admin = new dev.mooring.engine.kube.KubeHttp(
                    Config.fromConfig(runDir.resolve("admin.kubeconfig").toString()));
            admin.send("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", Map.of(),
                    "{\"metadata\":{\"name\":\"" + name + "\"},\"rules\":[" + rule + "]}", "application/json");
            admin.send("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", Map.of(), "{\"metadata\":{\"name\":\"" + name
                    + "\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"ClusterRole\",\"name\":\"" + name
                    + "\"},\"subjects\":[{\"kind\":\"ServiceAccount\",\"name\":\"" + name + "\",\"namespace\":\"operators\"}]}",
                    "application/json");
        }
    }

    static boolean exists(Path path) {
        return Files.exists(path);
    }
}
