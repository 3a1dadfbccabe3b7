package dev.mooring.engine.client;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.OwnerReferences;
import dev.mooring.api.TerminalException;
import dev.mooring.api.Wait;
import dev.mooring.engine.FakeSource;
import dev.mooring.engine.RecordingClient;
import dev.mooring.engine.informer.InformerCache;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The writes of owned children: what ensure, create-once, apply and prune send, and the children they refuse to take. */
class ChildrenTest {


    private final RecordingClient client = new RecordingClient();
    private final FakeSource<V1ConfigMap> source = new FakeSource<>(CONFIG_MAPS);
    private final InformerCache<V1ConfigMap> cache = new InformerCache<>(source);
    private final V1Deployment owner = new V1Deployment().apiVersion("apps/v1").kind("Deployment")
            .metadata(new V1ObjectMeta().namespace("ops").name("web").uid("uid-web"));

    private V1ConfigMap cached(String name, V1OwnerReference controller, Map<String, String> data) {
        V1ConfigMap child = new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta().namespace("ops").name(name)
                .uid("uid-" + name).resourceVersion("4").ownerReferences(controller == null ? null : new ArrayList<>(List.of(controller))))
                .data(data);
        source.add(child);
        return child;
    }

    private static V1ConfigMap desired(String name, Map<String, String> data) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(data);
    }

    @Test
    void aMissingChildIsReadLiveThenCreatedInItsOwnersNamespaceAndNamedAfterItWhenUnnamed() {
        Children.ensure(client, owner, new V1ConfigMap().metadata(new V1ObjectMeta()).data(Map.of("k", "v")), cache);
        assertEquals(List.of("GET ops/web", "CREATE ops/web [Deployment/web controller]"), client.requests,
                "a cache miss may be a child made a moment ago: read live first");
        assertEquals("A desired child needs metadata (at least an empty V1ObjectMeta)",
                assertThrows(IllegalArgumentException.class, () -> Children.ensure(client, owner, new V1ConfigMap(), cache)).getMessage());
    }

    @Test
    void anUnchangedChildCostsNothingAndAChangedOneIsAGuardedPatchKeepingOtherOwners() {
        V1OwnerReference other = new V1OwnerReference().apiVersion("v1").kind("Secret").name("s").uid("uid-s");
        V1ConfigMap child = cached("settings", OwnerReferences.controllerOf(owner), Map.of("k", "v"));
        child.getMetadata().getOwnerReferences().add(other);
        source.update(child);
        Children.ensure(client, owner, desired("settings", Map.of("k", "v")), cache);
        assertEquals(List.of(), client.requests, "answered from the cache, nothing to change");

        Children.ensure(client, owner, desired("settings", Map.of("k", "w")), cache);
        assertEquals(1, client.requests.size(), client.requests.toString());
        String patch = client.requests.get(0);
        assertTrue(patch.startsWith("PATCH ops/settings [{\"op\":\"test\",\"path\":\"/metadata/uid\",\"value\":\"uid-settings\"},"
                + "{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"4\"}") && patch.contains("\"value\":\"w\"")
                && !patch.contains("ownerReferences"), "the change only, guarded; the other owner stays: " + patch);
    }

    @Test
    void aChildWithoutAControllerOrAnothersIsRefusedAndOneOfAReplacedOwnerIsWaitedFor() {
        cached("loose", null, Map.of());
        assertEquals("V1ConfigMap ops/loose exists and has no controller; refusing to adopt it for Deployment web",
                assertThrows(TerminalException.class, () -> Children.ensure(client, owner, desired("loose", Map.of()), cache)).getMessage());
        cached("taken", new V1OwnerReference().apiVersion("apps/v1").kind("StatefulSet").name("db").uid("uid-db").controller(true),
                Map.of());
        assertEquals("V1ConfigMap ops/taken is controlled by StatefulSet db; refusing to take it over for Deployment web",
                assertThrows(TerminalException.class, () -> Children.createOnce(client, owner, desired("taken", Map.of()), cache))
                        .getMessage());
        cached("previous", new V1OwnerReference().apiVersion("apps/v1").kind("Deployment").name("web").uid("uid-old").controller(true),
                Map.of());
        Wait wait = assertThrows(Wait.class, () -> Children.apply(client, owner, desired("previous", Map.of()), "mooring-web", cache));
        assertEquals("PreviousOwnersChild", wait.reason());
        assertTrue(wait.getMessage().contains("still controlled by the previous Deployment web (uid uid-old)"), wait.getMessage());
        assertEquals(List.of(), client.requests, "nothing written for a child this owner does not control");
    }

    @Test
    void createOnceLeavesAnExistingChildAsItIs() {
        V1ConfigMap child = cached("settings", OwnerReferences.controllerOf(owner), Map.of("k", "old"));
        V1ConfigMap answered = Children.createOnce(client, owner, desired("settings", Map.of("k", "new")), cache);
        assertEquals(Map.of("k", "old"), answered.getData());
        assertEquals(child.getMetadata().getUid(), answered.getMetadata().getUid());
        assertEquals(List.of(), client.requests);
        Children.createOnce(client, owner, desired("fresh", Map.of()), cache);
        assertEquals(List.of("GET ops/fresh", "CREATE ops/fresh [Deployment/web controller]"), client.requests);
    }

    @Test
    void anAppliedChildCarriesOnlyItsOwnersControllerReference() {
        V1ConfigMap desired = desired("settings", Map.of("k", "v"));
        desired.getMetadata().setOwnerReferences(new ArrayList<>(List.of(new V1OwnerReference().kind("Secret").name("s").uid("uid-s"))));
        Children.apply(client, owner, desired, "mooring-web");
        assertEquals(List.of("GET ops/settings", "APPLY by mooring-web ops/settings [Deployment/web]"), client.requests);
    }

    /** The child as the API server stores an apply of {@code desired}: with the defaults it adds and a resourceVersion. */
    private V1ConfigMap storedApply(V1ConfigMap applied, Map<String, String> extraAnnotations) {
        V1ConfigMap stored = io.kubernetes.client.openapi.JSON.getGson().fromJson(io.kubernetes.client.openapi.JSON.getGson()
                .toJson(applied), V1ConfigMap.class);
        stored.getMetadata().uid("uid-" + stored.getMetadata().getName()).resourceVersion("9");
        extraAnnotations.forEach(stored.getMetadata()::putAnnotationsItem);
        source.add(stored);
        return stored;
    }

    /** What the recording client was asked to apply last. */
    private V1ConfigMap lastApplied() {
        return client.applied(V1ConfigMap.class);
    }

    @Test
    void anApplyOfWhatTheCachedChildHoldsCostsNoRequestAndAChangedValueOneApply() {
        Children.apply(client, owner, desired("settings", Map.of("k", "v")), "mooring-web", cache);
        assertEquals(List.of("GET ops/settings", "APPLY by mooring-web ops/settings [Deployment/web]"), client.requests);
        assertTrue(lastApplied().getMetadata().getAnnotations().get(AppliedFields.ANNOTATION).startsWith("sha256:"),
                "the apply carries the digest of its field set: " + lastApplied().getMetadata());
        storedApply(lastApplied(), Map.of("someone.else/note", "kept")); // the server's and other managers' fields do not matter

        client.requests.clear();
        Children.apply(client, owner, desired("settings", Map.of("k", "v")), "mooring-web", cache);
        assertEquals(List.of(), client.requests, "the cached child holds every field: no request");

        Children.apply(client, owner, desired("settings", Map.of("k", "w")), "mooring-web", cache);
        assertEquals(List.of("APPLY by mooring-web ops/settings [Deployment/web]"), client.requests, "a changed value: one apply");
    }

    @Test
    void aFieldDroppedFromTheDesiredChildIsAppliedAwayThoughTheCachedChildStillHoldsTheRest() {
        Children.apply(client, owner, desired("settings", Map.of("k", "v", "old", "x")), "mooring-web", cache);
        storedApply(lastApplied(), Map.of());
        client.requests.clear();
        Children.apply(client, owner, desired("settings", Map.of("k", "v")), "mooring-web", cache);
        assertEquals(List.of("APPLY by mooring-web ops/settings [Deployment/web]"), client.requests,
                "the field set changed (its digest): the apply removes data.old");
    }

    @Test
    void aChildAppliedWithoutTheDigestIsAppliedOnceMore() {
        V1ConfigMap child = cached("settings", OwnerReferences.controllerOf(owner), Map.of("k", "v"));
        assertTrue(child.getMetadata().getAnnotations() == null || !child.getMetadata().getAnnotations().containsKey(AppliedFields.ANNOTATION));
        Children.apply(client, owner, desired("settings", Map.of("k", "v")), "mooring-web", cache);
        assertEquals(List.of("APPLY by mooring-web ops/settings [Deployment/web]"), client.requests);
    }

    @Test
    void holdingComparesMembersListsByPositionAndNumbersByValue() {
        jakarta.json.JsonValue have = jakarta.json.Json.createReader(new java.io.StringReader(
                "{\"a\":{\"b\":1.0,\"extra\":true},\"list\":[{\"name\":\"x\",\"default\":\"d\"}],\"s\":\"t\"}")).readValue();
        java.util.function.Function<String, jakarta.json.JsonValue> json = text -> jakarta.json.Json.createReader(
                new java.io.StringReader(text)).readValue();
        assertTrue(AppliedFields.holds(have, json.apply("{\"a\":{\"b\":1},\"list\":[{\"name\":\"x\"}]}")),
                "defaults beside the desired fields, 1 and 1.0");
        assertTrue(!AppliedFields.holds(have, json.apply("{\"a\":{\"b\":2}}")), "another number");
        assertTrue(!AppliedFields.holds(have, json.apply("{\"list\":[{\"name\":\"x\"},{\"name\":\"y\"}]}")), "a longer list");
        assertTrue(!AppliedFields.holds(have, json.apply("{\"list\":[{\"name\":\"y\"}]}")), "another element");
        assertTrue(!AppliedFields.holds(have, json.apply("{\"missing\":\"m\"}")), "a member it lacks");
        assertTrue(!AppliedFields.holds(have, json.apply("{\"s\":{\"t\":1}}")), "an object where it has a string");
        assertTrue(!AppliedFields.holds(have, json.apply("{\"s\":\"u\"}")), "another string");
    }

    @Test
    void anEnsuredChildWhoseListsTheServerCompletedCostsNoRequest() {
        V1ConfigMap child = cached("settings", OwnerReferences.controllerOf(owner), Map.of("k", "v"));
        child.getMetadata().setLabels(Map.of("app", "web", "added-by", "server"));
        source.update(child);
        client.requests.clear();
        V1ConfigMap desired = desired("settings", Map.of("k", "v"));
        desired.getMetadata().setLabels(Map.of("app", "web"));
        Children.ensure(client, owner, desired, cache);
        assertEquals(List.of(), client.requests);
    }

    @Test
    void theDesiredJsonLeavesOutStatusAndWhatTheServerSets() {
        V1Deployment child = new V1Deployment().apiVersion("apps/v1").kind("Deployment").metadata(new V1ObjectMeta().name("d")
                .uid("u").resourceVersion("3").generation(2L).creationTimestamp(java.time.OffsetDateTime.now()).labels(Map.of("a", "b")))
                .status(new io.kubernetes.client.openapi.models.V1DeploymentStatus().replicas(1));
        assertEquals("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"labels\":{\"a\":\"b\"},\"name\":\"d\"}}",
                Children.desiredJson(child).toString());
    }

    @Test
    void theOwnedChildrenAreThoseItControlsInItsNamespaceAndPruneDeletesTheOnesNotKept() {
        cached("keep", OwnerReferences.controllerOf(owner), Map.of());
        cached("old", OwnerReferences.controllerOf(owner), Map.of());
        cached("foreign", new V1OwnerReference().apiVersion("apps/v1").kind("Deployment").name("api").uid("uid-api").controller(true),
                Map.of());
        V1ConfigMap elsewhere = new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta().namespace("shop")
                .name("away").uid("uid-away").resourceVersion("1").ownerReferences(List.of(OwnerReferences.controllerOf(owner))));
        source.add(elsewhere);
        assertEquals(List.of("keep", "old"), Children.owned(cache, owner).stream().map(map -> map.getMetadata().getName()).sorted().toList(),
                "another owner's and another namespace's are not this owner's");
        List<V1ConfigMap> deleted = Children.prune(client, owner, cache, List.of("keep"));
        assertEquals(List.of("old"), deleted.stream().map(map -> map.getMetadata().getName()).toList());
        assertEquals(List.of("DELETE ops/old propagation BACKGROUND if uid uid-old and resourceVersion 4"), client.requests);
        assertSame(true, Children.controlledBy(deleted.get(0), owner));
        assertSame(false, Children.controlledBy(source.get(new dev.mooring.api.ObjectKey("ops", "foreign")).orElseThrow(), owner), "another owner's");
        assertSame(false, Children.controlledBy(desired("free", Map.of()), owner), "no owner at all");
    }
}
