package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import dev.mooring.api.Context;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Owned children: ensure (create, merge, never take over), prune, and server-side apply. */
class ChildrenIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** A parent's data "children" lists the children it wants; "mode=apply" uses server-side apply. */
    static final class Parents implements Reconciler<V1ConfigMap> {
        @Override
        public Result reconcile(V1ConfigMap parent, Context<V1ConfigMap> context) {
            Map<String, String> data = parent.getData() == null ? Map.of() : parent.getData();
            Set<String> wanted = Arrays.stream(data.getOrDefault("children", "").split(","))
                    .map(String::trim).filter(s -> !s.isEmpty()).map(s -> parent.getMetadata().getName() + "-" + s)
                    .collect(Collectors.toCollection(TreeSet::new));
            for (String name : wanted) {
                V1ConfigMap child = new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                        .metadata(new V1ObjectMeta().name(name).labels(Map.of("child-of", parent.getMetadata().getName())))
                        .data(Map.of("from", parent.getMetadata().getName()));
                if ("apply".equals(data.get("mode"))) {
                    context.apply(child);
                } else {
                    context.ensure(child);
                }
            }
            context.prune(V1ConfigMap.class, wanted);
            return Result.done();
        }
    }

    private final CoreV1Api core = new CoreV1Api(Testbed.client());
    private final WriteCounter counter = new WriteCounter();
    private String namespace;

    @BeforeEach
    void isolated() throws ApiException {
        namespace = Testbed.createNamespace(core, "children");
    }

    private Engine engine() {
        ControllerDefinition definition = Engine.definition("children", V1ConfigMap.class, namespace, "role=parent", 1,
                List.of(V1ConfigMap.class), List.of());
        return new Engine(counter.client(), Testbed.client(), List.of(new OperatorRuntime.Entry(definition, new Parents())));
    }

    @Test
    void ensureCreatesMergesWritesNothingWhenConvergedAndPrunesExactlyTheUnwanted() throws Exception {
        try (Engine engine = engine()) {
            engine.awaitReady();
            V1ConfigMap bystander = create("p-zzz", Map.of(), Map.of("k", "v"), null); // p-… but not owned
            V1ConfigMap parent = create("p", Map.of("role", "parent"), Map.of("children", "a,b,c"), null);
            Eventually.await("three children", TIMEOUT, () -> childNames("p"), names -> names.equals(Set.of("p-a", "p-b", "p-c")));
            V1ConfigMap a = core.readNamespacedConfigMap("p-a", namespace).execute();
            V1OwnerReference owner = a.getMetadata().getOwnerReferences().get(0);
            assertEquals(parent.getMetadata().getUid(), owner.getUid());
            assertEquals(Boolean.TRUE, owner.getController());

            // Someone else adds a label: the merge keeps it, and a converged pass writes nothing.
            core.replaceNamespacedConfigMap("p-a", namespace, a.metadata(a.getMetadata().putLabelsItem("extra", "kept"))).execute();
            Eventually.await("the pass for the changed child", TIMEOUT, () -> engine.runtime.statuses().get(0).queued() == 0
                    && engine.runtime.statuses().get(0).processing() == 0);
            long passes = engine.runtime.statuses().get(0).successes();
            int writes = counter.count();
            engine.runtime.enqueue("children", new ObjectKey(namespace, "p"));
            Eventually.await("one more pass", TIMEOUT, () -> engine.runtime.statuses().get(0).successes() > passes);
            assertEquals(writes, counter.count(), "a converged pass wrote: " + counter.writes.subList(writes, counter.count()));
            assertEquals("kept", core.readNamespacedConfigMap("p-a", namespace).execute().getMetadata().getLabels().get("extra"));

            // b is no longer wanted: pruned; the unowned p-zzz stays.
            V1ConfigMap current = core.readNamespacedConfigMap("p", namespace).execute();
            core.replaceNamespacedConfigMap("p", namespace, current.data(Map.of("children", "a,c"))).execute();
            Eventually.await("b pruned", TIMEOUT, () -> childNames("p"), names -> names.equals(Set.of("p-a", "p-c")));
            assertEquals(bystander.getMetadata().getUid(),
                    core.readNamespacedConfigMap("p-zzz", namespace).execute().getMetadata().getUid());
            assertEquals(0, engine.runtime.statuses().get(0).errors());
        }
    }

    @Test
    void aChildControlledByAnotherObjectIsNeverTakenOver() throws Exception {
        try (Engine engine = engine()) {
            engine.awaitReady();
            V1ConfigMap other = create("other", Map.of(), Map.of(), null);
            V1ConfigMap taken = create("q-a", Map.of(), Map.of("mine", "other"), new V1OwnerReference().apiVersion("v1")
                    .kind("ConfigMap").name("other").uid(other.getMetadata().getUid()).controller(true));
            create("q", Map.of("role", "parent"), Map.of("children", "a"), null);
            Eventually.await("a terminal error", TIMEOUT, () -> engine.runtime.statuses().get(0).terminalErrors() >= 1);
            V1ConfigMap after = core.readNamespacedConfigMap("q-a", namespace).execute();
            assertEquals(taken.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion(), "the child was changed");
        }
    }

    @Test
    void applyWritesWithTheControllersFieldManager() throws Exception {
        try (Engine engine = engine()) {
            engine.awaitReady();
            create("r", Map.of("role", "parent"), Map.of("children", "a", "mode", "apply"), null);
            Eventually.await("the applied child", TIMEOUT, () -> childNames("r"), names -> names.equals(Set.of("r-a")));
            KubeHttp raw = new KubeHttp(Testbed.client());
            Set<String> managers = new TreeSet<>();
            for (JsonElement entry : raw.get("/api/v1/namespaces/" + namespace + "/configmaps/r-a", Map.of())
                    .getAsJsonObject("metadata").getAsJsonArray("managedFields")) {
                managers.add(entry.getAsJsonObject().get("manager").getAsString() + "/"
                        + entry.getAsJsonObject().get("operation").getAsString());
            }
            assertTrue(managers.contains("mooring-children/Apply"), "managers: " + managers);
            assertEquals("r", core.readNamespacedConfigMap("r-a", namespace).execute().getData().get("from"));
        }
    }

    /**
     * A parent deleted and created again under its name while its children still exist: the
     * children of the old one are waited for (not a terminal error), and the new parent gets its
     * own as soon as the garbage collector removed them.
     */
    @Test
    void aReplacedParentGetsItsOwnChildren() throws Exception {
        try (Engine engine = engine()) {
            engine.awaitReady();
            V1ConfigMap old = create("q", Map.of("role", "parent"), Map.of("children", "a,b"), null);
            Eventually.await("the old parent's children", TIMEOUT, () -> childNames("q"), names -> names.equals(Set.of("q-a", "q-b")));
            core.deleteNamespacedConfigMap("q", namespace).execute();
            V1ConfigMap replaced = create("q", Map.of("role", "parent"), Map.of("children", "a,b"), null);
            for (String child : List.of("q-a", "q-b")) {
                V1ConfigMap mine = Eventually.await(child + " of the new parent", Duration.ofSeconds(30), () -> core
                        .listNamespacedConfigMap(namespace).execute().getItems().stream()
                        .filter(cm -> cm.getMetadata().getName().equals(child) && cm.getMetadata().getDeletionTimestamp() == null)
                        .findFirst().orElse(null), cm -> cm != null
                        && cm.getMetadata().getOwnerReferences().get(0).getUid().equals(replaced.getMetadata().getUid()));
                assertTrue(!mine.getMetadata().getOwnerReferences().get(0).getUid().equals(old.getMetadata().getUid()));
            }
            dev.mooring.engine.model.ControllerStatus status = engine.runtime.statuses().get(0);
            assertEquals(0, status.terminalErrors(), "the old parent's children are a transient state, not a terminal error");
        }
    }

    private Set<String> childNames(String parent) throws ApiException {
        return core.listNamespacedConfigMap(namespace).labelSelector("child-of=" + parent).execute().getItems().stream()
                .filter(cm -> cm.getMetadata().getDeletionTimestamp() == null)
                .map(cm -> cm.getMetadata().getName()).collect(Collectors.toSet());
    }

    private V1ConfigMap create(String name, Map<String, String> labels, Map<String, String> data, V1OwnerReference owner)
            throws ApiException {
        V1ObjectMeta meta = new V1ObjectMeta().name(name).labels(labels);
        if (owner != null) {
            meta.addOwnerReferencesItem(owner);
        }
        return core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(meta).data(data)).execute();
    }
}
