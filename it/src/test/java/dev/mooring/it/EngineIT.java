package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.WatchMapper;
import dev.mooring.test.Eventually;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.PatchUtils;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reconcile engine embedded in JUnit, against the real API server. */
class EngineIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final CoreV1Api core = new CoreV1Api(Testbed.client());
    private String namespace;

    @BeforeEach
    void isolated() throws ApiException {
        namespace = Testbed.createNamespace(core, "engine");
    }

    /** Four workers, 200 updates of one object: never two passes of it at once, and the last state is seen. */
    @Test
    void perKeySerializationUnderABurstOfUpdates() throws Exception {
        Recorder recorder = new Recorder();
        recorder.workMillis = 5;
        ControllerDefinition definition = Engine.definition("burst", V1ConfigMap.class, namespace, null, 4, List.of(), List.of());
        try (Engine engine = Engine.of(definition, recorder)) {
            engine.awaitReady();
            createConfigMap("hot", Map.of("n", "0"), Map.of(), null);
            createConfigMap("cold", Map.of("n", "0"), Map.of(), null);
            for (int i = 1; i <= 200; i++) {
                patch("hot", "[{\"op\":\"replace\",\"path\":\"/data/n\",\"value\":\"" + i + "\"}]");
            }
            ObjectKey hot = new ObjectKey(namespace, "hot");
            Eventually.await("the last update reconciled", TIMEOUT, () -> recorder.lastData(hot),
                    data -> data != null && "200".equals(data.get("n")));
            assertEquals(0, recorder.overlaps.get(), "two passes of one key ran at the same time");
            assertTrue(recorder.passCount(hot) <= 201, "more passes than events: " + recorder.passCount(hot));
            assertTrue(recorder.passCount(new ObjectKey(namespace, "cold")) >= 1);
        }
    }

    /** The cache keeps no managedFields (on purpose, as controller-runtime's caches); a live read returns them. */
    @Test
    void cachedObjectsCarryNoManagedFieldsLiveReadsDo() throws Exception {
        java.util.concurrent.BlockingQueue<List<Integer>> seen = new java.util.concurrent.LinkedBlockingQueue<>();
        dev.mooring.api.Reconciler<V1ConfigMap> reconciler = (object, context) -> {
            V1ConfigMap live = context.client().get(V1ConfigMap.class, namespace, object.getMetadata().getName()).orElseThrow();
            V1ConfigMap cached = context.cached(V1ConfigMap.class).get(namespace, object.getMetadata().getName()).orElseThrow();
            seen.add(java.util.Arrays.asList(size(object), size(cached), size(live)));
            return dev.mooring.api.Result.done();
        };
        ControllerDefinition definition = Engine.definition("managed", V1ConfigMap.class, namespace, null, 1, List.of(), List.of());
        try (Engine engine = Engine.of(definition, reconciler)) {
            engine.awaitReady();
            createConfigMap("managed", Map.of("a", "1"), Map.of("team", "x"), null);
            List<Integer> sizes = seen.poll(TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(null, sizes.get(0), "the reconciled object (from the cache)");
            assertEquals(null, sizes.get(1), "a cache read");
            assertTrue(sizes.get(2) != null && sizes.get(2) >= 1, "a live read: " + sizes.get(2));
        }
    }

    private static Integer size(V1ConfigMap map) {
        return map.getMetadata().getManagedFields() == null ? null : map.getMetadata().getManagedFields().size();
    }

    /** owns: a child's change reconciles its controlling owner, and only when the owner's UID matches. */
    @Test
    void anOwnedChildsChangeReconcilesItsOwner() throws Exception {
        Recorder recorder = new Recorder();
        ControllerDefinition definition = Engine.definition("owner", V1ConfigMap.class, namespace, null, 1,
                List.of(V1Secret.class), List.of());
        try (Engine engine = Engine.of(definition, recorder)) {
            engine.awaitReady();
            V1ConfigMap owner = createConfigMap("owner", Map.of("a", "1"), Map.of(), null);
            ObjectKey ownerKey = new ObjectKey(namespace, "owner");
            Eventually.await("the owner reconciled", TIMEOUT, () -> recorder.passCount(ownerKey) >= 1);

            int before = recorder.passCount(ownerKey);
            createSecret("child", Map.of(), reference(owner.getMetadata().getName(), owner.getMetadata().getUid()));
            Eventually.await("the owner reconciled for its new child", TIMEOUT, () -> recorder.passCount(ownerKey) > before);

            // A child whose reference names the owner's name with a stale UID: its creation and updates do not reach
            // the owner (a finalizer holds it, so the garbage collector's delete is an update too) ...
            int afterChild = recorder.passCount(ownerKey);
            core.createNamespacedSecret(namespace, new V1Secret().metadata(new V1ObjectMeta().name("stale")
                    .addOwnerReferencesItem(reference("owner", UUID.randomUUID().toString()))
                    .addFinalizersItem("example.com/hold")).stringData(Map.of("k", "v"))).execute();
            createConfigMap("marker", Map.of(), Map.of(), null);
            Eventually.await("the marker reconciled", TIMEOUT, () -> recorder.passCount(new ObjectKey(namespace, "marker")) >= 1);
            assertEquals(afterChild, recorder.passCount(ownerKey), "a child of another UID reached the owner");
            // ... its deletion does: the owner of that name may have replaced the one it belonged to
            var raw = new dev.mooring.engine.kube.KubeHttp(Testbed.client());
            String stale = "/api/v1/namespaces/" + namespace + "/secrets/stale";
            raw.send("PATCH", stale, Map.of(), "{\"metadata\":{\"finalizers\":null}}", "application/merge-patch+json");
            try {
                raw.send("DELETE", stale, Map.of(), null, null); // unless the garbage collector's delete already completed
            } catch (dev.mooring.api.client.KubernetesException gone) {
                assertTrue(gone.isNotFound(), gone.getMessage());
            }
            Eventually.await("the owner reconciled for the stale child's deletion", TIMEOUT,
                    () -> recorder.passCount(ownerKey) > afterChild);
            assertTrue(engine.runtime.informerCount() >= 2);
        }
    }

    /** A mapped watch maps old and new states: moving a reference reconciles both targets. */
    @Test
    void aMappedWatchReconcilesTheOldAndTheNewTarget() throws Exception {
        Recorder recorder = new Recorder();
        WatchMapper byLabel = new WatchMapper(V1Secret.class, "target label", object -> {
            Map<String, String> labels = object.getMetadata().getLabels();
            return labels == null || !labels.containsKey("target") ? Set.of()
                    : Set.of(new ObjectKey(object.getMetadata().getNamespace(), labels.get("target")));
        });
        ControllerDefinition definition = Engine.definition("mapped", V1ConfigMap.class, namespace, null, 1, List.of(),
                List.of(byLabel));
        try (Engine engine = Engine.of(definition, recorder)) {
            engine.awaitReady();
            createConfigMap("a", Map.of(), Map.of(), null);
            createConfigMap("b", Map.of(), Map.of(), null);
            ObjectKey a = new ObjectKey(namespace, "a");
            ObjectKey b = new ObjectKey(namespace, "b");
            Eventually.await("a and b reconciled", TIMEOUT, () -> recorder.passCount(a) >= 1 && recorder.passCount(b) >= 1);

            int aBefore = recorder.passCount(a);
            createSecret("dependency", Map.of("target", "a"), null);
            Eventually.await("a reconciled for the new dependency", TIMEOUT, () -> recorder.passCount(a) > aBefore);

            int aMid = recorder.passCount(a);
            int bMid = recorder.passCount(b);
            PatchUtils.patch(V1Secret.class, () -> core.patchNamespacedSecret("dependency", namespace,
                    new V1Patch("{\"metadata\":{\"labels\":{\"target\":\"b\"}}}")).buildCall(null),
                    V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, core.getApiClient());
            Eventually.await("both the old (a) and the new (b) target reconciled", TIMEOUT,
                    () -> recorder.passCount(a) > aMid && recorder.passCount(b) > bMid);
        }
    }

    /** Controllers watching the same kind in the same scope share one informer; another scope gets its own. */
    @Test
    void informersAreSharedPerKindAndScope() throws Exception {
        String other = Testbed.createNamespace(core, "other");
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        Recorder elsewhere = new Recorder();
        List<OperatorRuntime.Entry> entries = List.of(
                new OperatorRuntime.Entry(Engine.definition("first", V1ConfigMap.class, namespace, null, 1, List.of(), List.of()), first),
                new OperatorRuntime.Entry(Engine.definition("second", V1ConfigMap.class, namespace, null, 1, List.of(), List.of()), second),
                new OperatorRuntime.Entry(Engine.definition("elsewhere", V1ConfigMap.class, other, null, 1, List.of(), List.of()), elsewhere));
        try (Engine engine = new Engine(Testbed.client(), Testbed.client(), entries)) {
            engine.awaitReady();
            assertEquals(2, engine.runtime.informerCount());
            createConfigMap("shared", Map.of(), Map.of(), null);
            ObjectKey key = new ObjectKey(namespace, "shared");
            Eventually.await("both controllers of the shared informer reconciled", TIMEOUT,
                    () -> first.passCount(key) == 1 && second.passCount(key) == 1);
            assertEquals(0, elsewhere.passes.size(), "a controller of another namespace saw the object");
        }
    }

    private V1OwnerReference reference(String name, String uid) {
        return new V1OwnerReference().apiVersion("v1").kind("ConfigMap").name(name).uid(uid).controller(true);
    }

    private V1ConfigMap createConfigMap(String name, Map<String, String> data, Map<String, String> labels,
            V1OwnerReference owner) throws ApiException {
        V1ObjectMeta meta = new V1ObjectMeta().name(name).labels(labels);
        if (owner != null) {
            meta.addOwnerReferencesItem(owner);
        }
        return core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(meta).data(data)).execute();
    }

    private void createSecret(String name, Map<String, String> labels, V1OwnerReference owner) throws ApiException {
        V1ObjectMeta meta = new V1ObjectMeta().name(name).labels(labels);
        if (owner != null) {
            meta.addOwnerReferencesItem(owner);
        }
        core.createNamespacedSecret(namespace, new V1Secret().metadata(meta).stringData(Map.of("k", "v"))).execute();
    }

    private void patch(String name, String jsonPatch) throws ApiException {
        PatchUtils.patch(V1ConfigMap.class, () -> core.patchNamespacedConfigMap(name, namespace, new V1Patch(jsonPatch))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_PATCH, core.getApiClient());
    }
}
