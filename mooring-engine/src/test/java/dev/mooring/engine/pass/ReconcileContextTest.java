package dev.mooring.engine.pass;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.OwnerReferences;
import dev.mooring.api.PartialObjectMetadata;
import dev.mooring.engine.FakeSource;
import dev.mooring.engine.RecordingClient;
import dev.mooring.engine.informer.InformerCache;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a pass's context gives the reconciler: its identity, caches, children's writes, staged status and conditions. */
class ReconcileContextTest {


    private final RecordingClient client = new RecordingClient();
    private final FakeSource<V1ConfigMap> children = new FakeSource<>(CONFIG_MAPS);
    private final List<ObjectKey> enqueued = new ArrayList<>();
    private final V1Deployment owner = new V1Deployment().apiVersion("apps/v1").kind("Deployment")
            .metadata(new V1ObjectMeta().namespace("ops").name("web").uid("uid-web").resourceVersion("7").generation(4L))
            .status(new V1DeploymentStatus().replicas(1));

    private final StatusWrites statusWrites = new StatusWrites();

    private ReconcileContext<V1Deployment> context(String controller) {
        if (client.stored.stream().noneMatch(stored -> stored instanceof V1Deployment)) {
            client.stored.add(owner);
        }
        ControllerCaches caches = new ControllerCaches(controller)
                .watched(V1ConfigMap.class, new InformerCache<>(children))
                .owned(V1ConfigMap.class, new InformerCache<>(children))
                .metadata(V1Secret.class, new InformerCache<>(new FakeSource<>(
                        new ResourceType<>("", "v1", "Secret", "secrets", true, PartialObjectMetadata.class))));
        return new ReconcileContext<>(new ControllerView(controller, caches, enqueued::add, Clock.systemUTC(), Set.of("Ready"), statusWrites),
                new ObjectKey("ops", "web"), owner, client);
    }

    private V1ConfigMap child(String name) {
        V1ConfigMap child = new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta().namespace("ops").name(name)
                .uid("uid-" + name).resourceVersion("3").ownerReferences(new ArrayList<>(List.of(OwnerReferences.controllerOf(owner)))))
                .data(Map.of("k", "v"));
        children.add(child);
        return child;
    }

    @Test
    void aPassBeforeTheCacheDeliveredTheLastStatusWriteStartsFromThatWrite() {
        ReconcileContext<V1Deployment> first = context("deployments");
        first.updateStatus(d -> d.getStatus().replicas(2));
        first.persistStatus();
        assertEquals(1, client.requests.size(), client.requests.toString());
        assertEquals(1, statusWrites.pending(), "the write is kept until the cache delivers it");

        client.requests.clear();
        ReconcileContext<V1Deployment> same = context("deployments"); // the cache still holds version 7
        same.updateStatus(d -> d.getStatus().replicas(2));
        same.persistStatus();
        assertEquals(List.of(), client.requests, "the status this controller wrote last: nothing to send");

        ReconcileContext<V1Deployment> changed = context("deployments");
        changed.updateStatus(d -> d.getStatus().replicas(3));
        changed.persistStatus();
        assertEquals(1, client.requests.size(), "no refused patch, no read: " + client.requests);
        assertTrue(client.requests.get(0).contains("{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"8\"}")
                && client.requests.get(0).contains("\"path\":\"/status/replicas\",\"value\":3"), "from version 8, which the last write made: " + client.requests);

        V1Deployment delivered = dev.mooring.engine.kube.Models.copy(owner);
        delivered.getMetadata().setResourceVersion("9");
        statusWrites.onUpdate(owner, delivered);
        assertEquals(0, statusWrites.pending(), "delivered: the cache is the base again");
    }

    @Test
    void aChildThatTheOwnedLabelSelectorWouldNotCacheIsRefusedBeforeAnyRequest() {
        ReconcileContext<V1Deployment> context = new ReconcileContext<>(new ControllerView("deployments",
                new ControllerCaches("deployments").owned(V1ConfigMap.class, new InformerCache<>(children))
                        .ownedSelectors(dev.mooring.engine.kube.Selectors.labels("app.kubernetes.io/managed-by=web")),
                enqueued::add, Clock.systemUTC(), Set.of(), statusWrites), new ObjectKey("ops", "web"), owner, client);
        V1ConfigMap unlabelled = new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta().name("settings"));
        for (java.util.function.Consumer<V1ConfigMap> write : List.<java.util.function.Consumer<V1ConfigMap>>of(
                context::ensure, context::apply, context::createOnce)) {
            dev.mooring.api.TerminalException refused = assertThrows(dev.mooring.api.TerminalException.class,
                    () -> write.accept(unlabelled));
            assertEquals("V1ConfigMap settings does not match the owns-label-selector 'app.kubernetes.io/managed-by=web' of controller"
                    + " deployments: it would never be cached, so every pass would read it and its changes would not reconcile its"
                    + " owner; give it labels that match", refused.getMessage());
        }
        assertEquals(List.of(), client.requests);
        V1ConfigMap labelled = new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().name("settings").labels(Map.of("app.kubernetes.io/managed-by", "web")));
        context.ensure(labelled);
        assertEquals(List.of("GET ops/settings", "CREATE ops/settings [Deployment/web controller]"), client.requests);
    }

    @Test
    void theContextNamesItsControllerAndKeyAndEnqueuesForIt() {
        ReconcileContext<V1Deployment> context = context("deployments");
        assertEquals("deployments", context.controllerName());
        assertEquals(new ObjectKey("ops", "web"), context.key());
        assertEquals("mooring-deployments", context.fieldManager());
        context.enqueue(new ObjectKey("ops", "other"));
        assertEquals(List.of(new ObjectKey("ops", "other")), enqueued);
        String longName = "c".repeat(130);
        assertEquals(("mooring-" + longName).substring(0, 128), context(longName).fieldManager(), "a field manager has at most 128 characters");
        assertEquals(128, context("c".repeat(120)).fieldManager().length(), "exactly 128 is kept whole");
    }

    @Test
    void aKindNotWatchedIsRefusedNamingTheDeclarationThatWouldWatchIt() {
        ReconcileContext<V1Deployment> context = context("deployments");
        assertEquals("V1Secret is not watched by controller deployments; declare it with @Controller(owns = ...) or a @Watch method",
                assertThrows(IllegalArgumentException.class, () -> context.cached(V1Secret.class)).getMessage());
        assertEquals("The metadata of V1ConfigMap is not watched by controller deployments; declare it with"
                + " @Watch(metadataOf = V1ConfigMap.class)",
                assertThrows(IllegalArgumentException.class, () -> context.cachedMetadata(V1ConfigMap.class)).getMessage());
        assertTrue(context.cachedMetadata(V1Secret.class) != null);
        assertEquals("V1Secret is not watched by controller deployments; declare it with @Controller(owns = ...) or a @Watch method",
                assertThrows(IllegalArgumentException.class, () -> context.prune(V1Secret.class, List.of())).getMessage());
    }

    @Test
    void anUnchangedCachedChildCostsNoRequestAndAnAppliedOneIsOwnedAndWrittenByTheControllersFieldManager() {
        ReconcileContext<V1Deployment> context = context("deployments");
        V1ConfigMap settings = child("settings");
        V1ConfigMap desired = new V1ConfigMap().metadata(new V1ObjectMeta().name("settings")).data(Map.of("k", "v"));
        assertEquals(settings.getMetadata().getUid(), context.ensure(desired).getMetadata().getUid());
        assertEquals(settings.getMetadata().getUid(), context.createOnce(
                new V1ConfigMap().metadata(new V1ObjectMeta().name("settings"))).getMetadata().getUid());
        assertEquals(List.of(), client.requests, "both answered from the owned cache");
        assertEquals(List.of("settings"), context.owned(V1ConfigMap.class).stream().map(map -> map.getMetadata().getName()).toList());

        V1ConfigMap applied = context.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name("settings")).data(Map.of("k", "w")));
        assertEquals("settings", applied.getMetadata().getName());
        assertEquals(List.of("APPLY by mooring-deployments ops/settings [Deployment/web]"), client.requests);
    }

    @Test
    void pruningDeletesTheOwnedChildrenNotKept() {
        ReconcileContext<V1Deployment> context = context("deployments");
        child("keep");
        child("old");
        assertEquals(List.of("old"), context.prune(V1ConfigMap.class, List.of("keep")).stream().map(m -> m.getMetadata().getName()).toList());
        assertEquals(List.of("DELETE ops/old propagation BACKGROUND if uid uid-old and resourceVersion 3"), client.requests,
                "a guarded delete whose dependents go too");
    }

    @Test
    void aManagedConditionIsTheStagesAndOthersAreStagedWithTheStatusChangeSeeingThem() {
        ReconcileContext<V1Deployment> context = context("deployments");
        assertEquals("Condition Ready is managed by the controller's stages",
                assertThrows(IllegalArgumentException.class, () -> context.condition("Ready", "True", "Done", "")).getMessage());
        context.condition("Synced", "True", "Copied", "copied");
        List<String> seen = new ArrayList<>();
        context.updateStatus(copy -> {
            seen.add(copy.getStatus().getConditions().get(0).getType());
            copy.getStatus().setReplicas(3);
        });
        assertEquals(List.of("Synced"), seen, "a status change sees the condition staged before it");
        assertEquals(1, owner.getStatus().getReplicas(), "the cached object is not changed");
        context.observeGeneration();
        context.persistStatus();
        String patch = client.requests.get(client.requests.size() - 1);
        assertTrue(patch.startsWith("PATCH status ops/web") && patch.contains("\"type\":\"Synced\"") && patch.contains("\"path\":\"/status/replicas\",\"value\":3")
                && patch.contains("\"path\":\"/status/observedGeneration\",\"value\":4"), patch);
    }

    @Test
    void aBuiltInKindsOwnConditionsKeepTheirFieldsAndGetNoObservedGenerationTheirTypeLacks() {
        java.time.OffsetDateTime since = java.time.OffsetDateTime.parse("2026-01-02T03:04:05Z");
        owner.getStatus().setConditions(new ArrayList<>(List.of(
                new io.kubernetes.client.openapi.models.V1DeploymentCondition().type("Available").status("True")
                        .reason("MinimumReplicasAvailable").lastUpdateTime(since).lastTransitionTime(since),
                new io.kubernetes.client.openapi.models.V1DeploymentCondition().type("Synced").status("True").reason("Old")
                        .lastUpdateTime(since).lastTransitionTime(since))));
        ReconcileContext<V1Deployment> context = context("deployments");
        context.condition("Synced", "True", "Copied", "copied");
        context.condition("Exposed", "False", "NoService", "no service yet");
        List<io.kubernetes.client.openapi.models.V1DeploymentCondition> seen = new ArrayList<>();
        context.updateStatus(copy -> seen.addAll(copy.getStatus().getConditions()));
        assertEquals(List.of("Available", "Synced", "Exposed"), seen.stream().map(c -> c.getType()).toList());
        assertEquals(since, seen.get(0).getLastUpdateTime(), "another condition stays as it was");
        assertEquals("Copied", seen.get(1).getReason());
        assertEquals(since.toInstant(), seen.get(1).getLastTransitionTime().toInstant(), "the same status keeps its transition time");
        assertEquals(since, seen.get(1).getLastUpdateTime(), "a field the standard condition lacks stays");
        context.persistStatus();
        String patch = client.requests.get(client.requests.size() - 1);
        assertTrue(!patch.contains("observedGeneration"), "V1DeploymentCondition has no observedGeneration: " + patch);
    }

    @dev.mooring.api.CustomResource(group = "example.com", version = "v1")
    static class Gadget extends dev.mooring.api.CustomObject {
        Status status;

        static class Status {
            List<io.kubernetes.client.openapi.models.V1Condition> conditions;
        }
    }

    /** The same, read through getters: the condition type is known, and it has observedGeneration. */
    @dev.mooring.api.CustomResource(group = "example.com", version = "v1")
    static class Gizmo extends dev.mooring.api.CustomObject {
        private Status status;

        public Status getStatus() {
            return status;
        }

        static class Status {
            private List<io.kubernetes.client.openapi.models.V1Condition> conditions;

            public List<io.kubernetes.client.openapi.models.V1Condition> getConditions() {
                return conditions;
            }
        }
    }

    @Test
    void aCustomResourcesStandardConditionsObserveTheGeneration() {
        Gadget gadget = new Gadget();
        gadget.setMetadata(new V1ObjectMeta().namespace("ops").name("g").uid("uid-g").resourceVersion("2").generation(6L));
        assertTrue(stagedCondition(gadget).contains("\"observedGeneration\":6,\"reason\":\"Copied\""), "no status getter");
        Gizmo gizmo = new Gizmo();
        gizmo.setMetadata(new V1ObjectMeta().namespace("ops").name("g").uid("uid-g").resourceVersion("2").generation(7L));
        assertTrue(stagedCondition(gizmo).contains("\"observedGeneration\":7,\"reason\":\"Copied\""), "V1Condition through getters");
    }

    /** The status patch of a pass over {@code object} that sets condition Synced. */
    private <T extends dev.mooring.api.CustomObject> String stagedCondition(T object) {
        client.stored.add(object);
        ReconcileContext<T> context = new ReconcileContext<>(new ControllerView("gadgets",
                new ControllerCaches("gadgets"), enqueued::add, Clock.systemUTC(), Set.of(), new StatusWrites()), new ObjectKey("ops", "g"), object, client);
        context.condition("Synced", "True", "Copied", "copied");
        context.persistStatus();
        return client.requests.get(client.requests.size() - 1);
    }

    @Test
    void anObjectWithoutAGenerationHasNoObservedGenerationToWrite() {
        owner.getMetadata().setGeneration(null);
        ReconcileContext<V1Deployment> context = context("deployments");
        context.observeGeneration();
        context.persistStatus();
        assertEquals(List.of(), client.requests, "nothing staged, no request");
    }

    @Test
    void anEventIsCheckedWhenQueuedNotWhenSent() {
        ReconcileContext<V1Deployment> context = context("deployments");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> context.event(dev.mooring.api.EventType.NORMAL, "not camel", "m"))
                .getMessage().startsWith("Event reason must be a CamelCase identifier"));
        context.event(dev.mooring.api.EventType.NORMAL, "Scaled", "to 3");
        assertEquals(List.of(new EventRecorder.Queued(dev.mooring.api.EventType.NORMAL, "Scaled", "Reconcile", "to 3")),
                context.queuedEvents());
    }
}
