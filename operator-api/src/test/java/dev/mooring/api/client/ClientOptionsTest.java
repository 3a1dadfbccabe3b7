package dev.mooring.api.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClientOptionsTest {

    @Test
    void aDeleteGracePeriodIsWholeSecondsAndAPreconditionNotBlank() {
        assertEquals(Duration.ZERO, DeleteOptions.DEFAULT.withGracePeriod(Duration.ZERO).gracePeriod());
        assertEquals("A grace period is zero or more whole seconds, got PT0.5S",
                assertThrows(IllegalArgumentException.class, () -> DeleteOptions.DEFAULT.withGracePeriod(Duration.ofMillis(500)))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> DeleteOptions.DEFAULT.withGracePeriod(Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> DeleteOptions.DEFAULT.withUid(" "));
        DeleteOptions options = DeleteOptions.DEFAULT.withUid("u").asDryRun().withPropagation(DeleteOptions.Propagation.ORPHAN);
        assertEquals("u", options.uid());
        assertNull(options.resourceVersion());
        assertTrue(options.dryRun());
        assertEquals("Orphan", options.propagation().wire());
    }

    @Test
    void aListPageHasOneToTenThousandObjectsAndBlankSelectorsSelectAll() {
        assertEquals("A page size is 1 to 10000, got 0",
                assertThrows(IllegalArgumentException.class, () -> ListOptions.DEFAULT.withPageSize(0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ListOptions.DEFAULT.withPageSize(10_001));
        assertNull(ListOptions.DEFAULT.withLabelSelector(" ").labelSelector());
        assertTrue(ListOptions.DEFAULT.inAllNamespaces().allNamespaces());
        assertNull(WatchOptions.DEFAULT.from("").resourceVersion(), "a blank resourceVersion starts from the current objects");
        assertEquals(ListOptions.DEFAULT, new WatchOptions(null, null, false).list());
    }

    @Test
    void theLimitsOfPagesAndGracePeriodsAreInclusive() {
        assertEquals(1, ListOptions.DEFAULT.withPageSize(1).pageSize());
        assertEquals(10_000, ListOptions.DEFAULT.withPageSize(10_000).pageSize());
        assertEquals("metadata.name=a", ListOptions.DEFAULT.withFieldSelector("metadata.name=a").fieldSelector());
        assertNull(ListOptions.DEFAULT.withFieldSelector("").fieldSelector());
        assertEquals(Duration.ofSeconds(30), DeleteOptions.DEFAULT.withGracePeriod(Duration.ofSeconds(30)).gracePeriod(),
                "whole seconds are a grace period");
        assertThrows(IllegalArgumentException.class, () -> DeleteOptions.DEFAULT.withResourceVersion(""));
        assertEquals("7", DeleteOptions.DEFAULT.withResourceVersion("7").resourceVersion());
    }

    @Test
    void aGuardedDeleteCarriesTheUidAndResourceVersionItWasReadWith() {
        DeleteOptions guarded = DeleteOptions.guardedBy(new io.kubernetes.client.openapi.models.V1ConfigMap()
                .metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().uid("u-1").resourceVersion("9")));
        assertEquals(new DeleteOptions(null, null, "u-1", "9", false), guarded);
    }

    @Test
    void patchAndWatchOptionsChangeOnlyWhatTheySay() {
        assertEquals(new PatchOptions(true, false), PatchOptions.statusSubresource());
        assertEquals(new PatchOptions(true, true), PatchOptions.statusSubresource().asDryRun());
        assertEquals(new PatchOptions(false, true), PatchOptions.DEFAULT.asDryRun());
        ListOptions selected = ListOptions.DEFAULT.withLabelSelector("app=web");
        assertEquals(new WatchOptions(selected, "5", true), WatchOptions.DEFAULT.withSelection(selected).from("5").failingWhenExpired());
    }

    @Test
    void aConflictIsA409OrALostGuardAndNotFoundIs404() {
        KubernetesException conflict = new KubernetesException(409, "Conflict", "stale", null);
        assertEquals(409, conflict.code());
        assertEquals("Conflict", conflict.reason());
        assertTrue(conflict.isConflict());
        assertEquals(false, conflict.isNotFound());
        assertTrue(new KubernetesException(422, "Invalid", "test failed", null, true).isConflict(), "a failed guard");
        assertEquals(false, new KubernetesException(422, "Invalid", "refused", null).isConflict(), "an invalid object");
        KubernetesException missing = new KubernetesException(404, null, "gone", null);
        assertTrue(missing.isNotFound());
        assertEquals(false, missing.isConflict());
        assertEquals("", missing.reason(), "no reason: empty, never null");
    }

    @Test
    void waitConditionsHoldOnDeletionOrOnAPresentObjectThatMatches() {
        io.kubernetes.client.openapi.models.V1ConfigMap map = new io.kubernetes.client.openapi.models.V1ConfigMap();
        WaitCondition<io.kubernetes.client.openapi.models.V1ConfigMap> deleted = WaitCondition.deleted();
        assertTrue(deleted.holds(WatchEvent.Type.DELETED, map));
        assertEquals(false, deleted.holds(WatchEvent.Type.MODIFIED, map));
        WaitCondition<io.kubernetes.client.openapi.models.V1ConfigMap> labelled = WaitCondition.matches(m -> m.getData() != null && "v".equals(m.getData().get("k")));
        assertEquals(false, labelled.holds(WatchEvent.Type.ADDED, map));
        map.setData(java.util.Map.of("k", "v"));
        assertTrue(labelled.holds(WatchEvent.Type.MODIFIED, map));
        assertEquals(false, labelled.holds(WatchEvent.Type.DELETED, map), "a deleted object matches nothing");
    }

    private static final ResourceList<?> LISTED = (ResourceList<?>) java.lang.reflect.Proxy.newProxyInstance(
            ResourceList.class.getClassLoader(), new Class<?>[] {ResourceList.class}, (proxy, method, arguments) -> null);

    /** A client whose abstract methods record their call and answer the object given (or true, or a marker list). */
    private static ResourceClient recording(java.util.List<String> calls) {
        return (ResourceClient) java.lang.reflect.Proxy.newProxyInstance(ResourceClient.class.getClassLoader(),
                new Class<?>[] {ResourceClient.class}, (proxy, method, arguments) -> {
                    if (method.isDefault()) {
                        return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, arguments);
                    }
                    calls.add(method.getName() + java.util.Arrays.stream(arguments).map(a -> a instanceof Class<?> c ? c.getSimpleName()
                            : a instanceof io.kubernetes.client.common.KubernetesObject ? "object" : String.valueOf(a)).toList());
                    if (method.getReturnType() == boolean.class) {
                        return arguments[2] != null; // delete: true for a named object
                    }
                    return method.getReturnType() == ResourceList.class ? LISTED
                            : method.getReturnType().isInstance(arguments[0]) ? arguments[0] : null;
                });
    }

    @Test
    void theShortFormsOfTheClientUseTheDefaultOptions() {
        java.util.List<String> calls = new java.util.ArrayList<>();
        ResourceClient client = recording(calls);
        io.kubernetes.client.openapi.models.V1ConfigMap map = new io.kubernetes.client.openapi.models.V1ConfigMap()
                .metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().namespace("ops").name("a"));
        assertEquals(map, client.create(map));
        assertEquals(map, client.update(map));
        assertEquals(map, client.updateStatus(map));
        assertEquals(map, client.save(map));
        assertEquals(map, client.apply(map, "me"));
        assertEquals(map, client.patch(map, jakarta.json.Json.createArrayBuilder().build()));
        assertTrue(client.delete(map, DeleteOptions.DEFAULT.withUid("u")));
        assertEquals(false, client.delete(new io.kubernetes.client.openapi.models.V1ConfigMap(), DeleteOptions.DEFAULT));
        org.junit.jupiter.api.Assertions.assertSame(LISTED, client.list(io.kubernetes.client.openapi.models.V1ConfigMap.class, "ops"));
        WaitCondition<io.kubernetes.client.openapi.models.V1ConfigMap> gone = WaitCondition.deleted();
        client.waitFor(map, gone, Duration.ofSeconds(1));
        assertEquals(java.util.List.of("create[object, " + WriteOptions.DEFAULT + "]", "update[object, " + WriteOptions.DEFAULT + "]",
                "updateStatus[object, " + WriteOptions.DEFAULT + "]", "save[object, " + WriteOptions.DEFAULT + "]",
                "apply[object, me, " + WriteOptions.DEFAULT + "]", "patch[object, [], " + PatchOptions.DEFAULT + "]",
                "delete[V1ConfigMap, ops, a, " + DeleteOptions.DEFAULT.withUid("u") + "]",
                "delete[V1ConfigMap, null, null, " + DeleteOptions.DEFAULT + "]",
                "list[V1ConfigMap, ops, " + ListOptions.DEFAULT + "]", "waitFor[object, {condition=" + gone + "}, PT1S]"), calls);
    }
}
