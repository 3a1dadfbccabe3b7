package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.TerminalException;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.PatchOptions;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.api.patch.Patches;
import dev.mooring.engine.client.LiveResourceClient;
import dev.mooring.engine.kube.DiscoveredKinds;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Guarded writes of the live client against the real API server, with every write request counted. */
class WritesIT {

    private final CoreV1Api core = new CoreV1Api(Testbed.client());
    private final WriteCounter counter = new WriteCounter();
    private ResourceClient client;
    private String namespace;

    @BeforeEach
    void setUp() throws ApiException {
        namespace = Testbed.createNamespace(core, "writes");
        KubeHttp http = new KubeHttp(counter.client());
        client = new LiveResourceClient(http, new DiscoveredKinds(http), namespace);
    }

    private V1ConfigMap configMap(String name, Map<String, String> data) throws ApiException {
        return core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(data))
                .execute();
    }

    @Test
    void mutateWritesTheDifferenceWithGuardsAndNothingForANoOp() throws ApiException {
        V1ConfigMap original = configMap("m", Map.of("a", "1"));
        V1ConfigMap unchanged = client.mutate(original, copy -> copy.getData().put("a", "1"));
        assertEquals(0, counter.count(), "a no-op mutate sent " + counter.writes);
        assertEquals(original.getMetadata().getResourceVersion(), unchanged.getMetadata().getResourceVersion());

        V1ConfigMap changed = client.mutate(original, copy -> copy.getData().put("b", "2"));
        assertEquals(List.of("PATCH /api/v1/namespaces/" + namespace + "/configmaps/m"), counter.writes);
        assertEquals(Map.of("a", "1", "b", "2"), changed.getData());
        assertEquals(Map.of("a", "1", "b", "2"), core.readNamespacedConfigMap("m", namespace).execute().getData());
    }

    @Test
    void aWriteThatLosesARaceIsAConflict() throws ApiException {
        V1ConfigMap original = configMap("race", Map.of("a", "1"));
        KubernetesException e = assertThrows(KubernetesException.class, () -> client.mutate(original, copy -> {
            // another writer gets in between the live read and the patch
            try {
                V1ConfigMap other = core.readNamespacedConfigMap("race", namespace).execute();
                core.replaceNamespacedConfigMap("race", namespace, other.data(Map.of("a", "other"))).execute();
            } catch (ApiException failed) {
                throw new IllegalStateException(failed);
            }
            copy.getData().put("a", "mine");
        }));
        assertTrue(e.isConflict(), "expected a conflict, got " + e.code() + ": " + e.getMessage());
        assertEquals("other", core.readNamespacedConfigMap("race", namespace).execute().getData().get("a"));
    }

    /** In a controller: the pass that loses the race fails with a conflict, the retry starts from fresh state and converges. */
    @Test
    void aReconcileThatLosesARaceConvergesOnTheNextPass() throws Exception {
        java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
        dev.mooring.api.Reconciler<V1ConfigMap> stamper = (resource, context) -> {
            int attempt = attempts.incrementAndGet();
            context.client().mutate(resource, copy -> {
                if (attempt == 1) {
                    try { // another writer gets in between this pass's read and write
                        V1ConfigMap other = core.readNamespacedConfigMap("stamped", namespace).execute();
                        core.replaceNamespacedConfigMap("stamped", namespace, other.putDataItem("other", "x")).execute();
                    } catch (ApiException e) {
                        throw new IllegalStateException(e);
                    }
                }
                copy.putDataItem("stamp", "done");
            });
            return dev.mooring.api.Result.done();
        };
        try (Engine engine = Engine.of(Engine.definition("stamper", V1ConfigMap.class, namespace, null, 1,
                List.of(), List.of()), stamper)) {
            engine.awaitReady();
            configMap("stamped", Map.of("a", "1"));
            Eventually.await("the stamp after a retry", java.time.Duration.ofSeconds(60),
                    () -> core.readNamespacedConfigMap("stamped", namespace).execute().getData(),
                    data -> "done".equals(data.get("stamp")));
            Map<String, String> data = core.readNamespacedConfigMap("stamped", namespace).execute().getData();
            assertEquals("x", data.get("other"), "the other writer's change was lost");
            assertEquals(1, engine.runtime.statuses().get(0).errors(), "exactly the lost race failed");
            assertTrue(attempts.get() >= 2);
        }
    }

    @Test
    void anObjectReplacedUnderTheSameNameIsRejectedBeforeTheCallback() throws ApiException {
        V1ConfigMap original = configMap("again", Map.of("a", "1"));
        core.deleteNamespacedConfigMap("again", namespace).execute();
        configMap("again", Map.of("a", "new"));
        AtomicBoolean called = new AtomicBoolean();
        KubernetesException e = assertThrows(KubernetesException.class,
                () -> client.mutate(original, copy -> called.set(true)));
        assertEquals(409, e.code());
        assertTrue(e.getMessage().contains("was replaced"), e.getMessage());
        assertFalse(called.get(), "the callback ran for a replaced object");
        assertEquals(0, counter.count());
    }

    @Test
    void mutateStatusWritesOnlyStatusThroughTheSubresource() throws ApiException {
        AppsV1Api apps = new AppsV1Api(Testbed.client());
        V1Deployment deployment = apps.createNamespacedDeployment(namespace, new V1Deployment()
                .metadata(new V1ObjectMeta().name("web")).spec(new V1DeploymentSpec()
                        .selector(new V1LabelSelector().matchLabels(Map.of("app", "web")))
                        .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", "web")))
                                .spec(new V1PodSpec().containers(List.of(new V1Container().name("c").image("c:1")))))))
                .execute();
        V1Deployment updated = client.mutateStatus(deployment, copy -> copy.status(new V1DeploymentStatus().replicas(3)));
        assertEquals(3, updated.getStatus().getReplicas());
        assertEquals(List.of("PATCH /apis/apps/v1/namespaces/" + namespace + "/deployments/web/status"), counter.writes);
        IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
                () -> client.mutateStatus(deployment, copy -> copy.getSpec().replicas(5)));
        assertTrue(outside.getMessage().contains("/spec"), outside.getMessage());

        V1Deployment dry = client.patch(updated, Patches.diff(updated, copyWithReplicas(updated, 9)), PatchOptions.DEFAULT.asDryRun());
        assertEquals(9, dry.getSpec().getReplicas());
        assertEquals(1, apps.readNamespacedDeployment("web", namespace).execute().getSpec().getReplicas(), "a dry run persisted");
    }

    private static V1Deployment copyWithReplicas(V1Deployment deployment, int replicas) {
        V1Deployment copy = io.kubernetes.client.openapi.JSON.getGson().fromJson(
                io.kubernetes.client.openapi.JSON.getGson().toJsonTree(deployment), V1Deployment.class);
        copy.getSpec().setReplicas(replicas);
        return copy;
    }

    @Test
    void finalizersAreAddedAndRemovedWithoutTouchingOthers() throws ApiException {
        V1ConfigMap original = core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta()
                .name("f").finalizers(List.of("other.example/keep")))).execute();
        V1ConfigMap with = client.ensureFinalizer(original, "example.com/cleanup");
        assertEquals(List.of("other.example/keep", "example.com/cleanup"), with.getMetadata().getFinalizers());
        int writes = counter.count();
        client.ensureFinalizer(with, "example.com/cleanup");
        assertEquals(writes, counter.count(), "adding a present finalizer wrote");

        V1ConfigMap without = client.removeFinalizer(with, "example.com/cleanup");
        assertEquals(List.of("other.example/keep"), without.getMetadata().getFinalizers());
        client.removeFinalizer(without, "example.com/cleanup");
        assertEquals(writes + 1, counter.count(), "removing an absent finalizer wrote");

        assertThrows(IllegalArgumentException.class, () -> client.ensureFinalizer(without, "unqualified"));
        core.deleteNamespacedConfigMap("f", namespace).execute(); // held by other.example/keep
        V1ConfigMap deleting = core.readNamespacedConfigMap("f", namespace).execute();
        TerminalException late = assertThrows(TerminalException.class, () -> client.ensureFinalizer(deleting, "example.com/cleanup"));
        assertTrue(late.getMessage().contains("deletion has begun"), late.getMessage());
        client.mutate(deleting, copy -> copy.getMetadata().setFinalizers(List.of()));
    }

    @Test
    void aGuardedDeleteRefusesAChangedObject() throws ApiException {
        V1ConfigMap original = configMap("d", Map.of("a", "1"));
        V1ConfigMap current = client.mutate(original, copy -> copy.setData(new HashMap<>(Map.of("a", "2"))));
        KubernetesException stale = assertThrows(KubernetesException.class, () -> client.delete(original));
        assertEquals(409, stale.code(), stale.getMessage());
        assertTrue(client.delete(current));
        assertFalse(client.delete(current), "deleting a gone object reports false");
    }
}
