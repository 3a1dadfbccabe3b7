package dev.mooring.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerState;
import dev.mooring.engine.model.ControllerStatus;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The runtime's start-up, failure and stop semantics over a scripted API (discovery, lists and
 * quiet watches answered in-process): what it asks for and in which order, and when passes run.
 * What Kubernetes itself decides is the integration tests' part (StartupIT, EngineFailureIT).
 */
class OperatorRuntimeTest {

    private static final Duration LONG = Duration.ofSeconds(30);

    private final ScriptedApi api = new ScriptedApi();
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final List<String> passes = new CopyOnWriteArrayList<>();
    private final LogCapture log = new LogCapture(OperatorRuntime.class);
    private OperatorRuntime runtime;

    @AfterEach
    void stop() throws InterruptedException {
        api.releaseAll();
        if (runtime != null) {
            runtime.stop();
            runtime.awaitStopped(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
        scheduler.shutdownNow();
        executor.awaitTermination(10, TimeUnit.SECONDS);
        log.stop();
    }

    @org.junit.jupiter.api.BeforeEach
    void capture() {
        log.start();
    }

    private static ControllerDefinition maps(String name, Duration syncTimeout, List<Class<? extends KubernetesObject>> owns) {
        return ControllerDefinition.builder(name, V1ConfigMap.class).namespace("ops").workers(1).resync(Duration.ofHours(10))
                .syncTimeout(syncTimeout).shutdownTimeout(Duration.ofSeconds(5)).owns(owns).build();
    }

    private Reconciler<V1ConfigMap> recording(String controller) {
        return (map, context) -> {
            passes.add(controller + " " + map.getMetadata().getName());
            return Result.done();
        };
    }

    private OperatorRuntime build(ControllerDefinition... definitions) {
        KubeHttp http = api.http();
        Engine.Builder builder = Engine.builder(http, http).threads(executor, scheduler);
        for (ControllerDefinition definition : definitions) {
            builder.controller(definition, recording(definition.name()));
        }
        runtime = builder.build();
        return runtime;
    }

    @Test
    void noPassRunsUntilTheInitialListOfEveryWatchedKindIsIn() throws Exception {
        api.objects("configmaps", "a");
        CountDownLatch secrets = api.hold("secrets");
        build(maps("maps", LONG, List.of(V1Secret.class))).start();

        await("the Secrets' list asked for", () -> api.asked("secrets"));
        Thread.sleep(300); // a pass that ran too early would have run by now (the primary's list is in)
        assertEquals(List.of(), passes, "no pass while the owned kind's initial list is out");
        assertEquals(ControllerState.STARTING, runtime.statuses().get(0).state());
        assertFalse(runtime.ready());
        assertTrue(runtime.healthy());

        secrets.countDown();
        await("the pass of ConfigMap a", () -> passes.contains("maps a"));
        await("ready", runtime::ready);
        assertEquals(Map.of("informer ConfigMap in ops", "connected", "informer Secret in ops", "connected"), runtime.connections());
    }

    /**
     * Another live replica holds shard 1 (its Leases advertise an hour), so this one takes shard 0
     * alone: the keys of shard 0 are passed when it is acquired, and no key of shard 1 ever is.
     */
    @Test
    void aShardedRuntimePassesNothingUntilItOwnsShardsThenEveryCachedKeyOfThem() throws Exception {
        passesTheShardItTakes(dev.mooring.engine.informer.ReadYourWrites.Settings.DEFAULT);
        assertEquals(List.of("0", "none"), api.listVersions(),
                "the shard taken is passed after a consistent list: whatever its last holder wrote is in the cache");
    }

    @Test
    void withoutReadYourWritesAShardTakenIsPassedWithoutAList() throws Exception {
        passesTheShardItTakes(dev.mooring.engine.informer.ReadYourWrites.Settings.OFF);
        assertEquals(List.of("0"), api.listVersions());
        assertEquals(expectedAdds, addedKeys, "the initial list's keys, then those of the shard taken only");
    }

    /** Keys that became ready in {@link #passesTheShardItTakes}, and how many the initial list's and the shard's own make. */
    private int addedKeys;
    private int expectedAdds;

    private void passesTheShardItTakes(dev.mooring.engine.informer.ReadYourWrites.Settings readYourWrites) throws Exception {
        dev.mooring.engine.replica.ShardMap map = new dev.mooring.engine.replica.ShardMap(2);
        List<String> names = List.of("a", "b", "c", "d", "e", "f", "g", "h");
        List<String> ours = names.stream().filter(name -> map.shardOf(new ObjectKey("ops", name)) == 0).map(name -> "maps " + name).toList();
        assertTrue(!ours.isEmpty() && ours.size() < names.size(), "both shards have keys: " + ours);
        api.objects("configmaps", names.toArray(String[]::new));
        String otherMember = new dev.mooring.engine.replica.ShardSettings(new dev.mooring.engine.replica.ElectionSettings("work", "ops", "other",
                Duration.ofSeconds(1), Duration.ofMillis(500), Duration.ofMillis(100)), 2).memberLease();
        api.heldLease(otherMember, "other");
        api.heldLease("work-shard-1", "other");
        KubeHttp http = api.http();
        dev.mooring.engine.replica.ShardCoordinator shards = new dev.mooring.engine.replica.ShardCoordinator(http,
                new dev.mooring.engine.replica.ShardSettings(new dev.mooring.engine.replica.ElectionSettings("work", "ops", "me",
                        Duration.ofSeconds(1), Duration.ofMillis(500), Duration.ofMillis(100)), 2));
        AtomicInteger added = new AtomicInteger();
        Engine.Builder builder = Engine.builder(http, http).threads(executor, scheduler).shards(shards).readYourWrites(readYourWrites)
                .observer(new PassObserver() {
                    @Override
                    public void passed(String controller, dev.mooring.engine.pass.Outcome.Kind outcome, Duration duration) {
                    }

                    @Override
                    public dev.mooring.engine.queue.QueueObserver queue(String controller) {
                        return new dev.mooring.engine.queue.QueueObserver() {
                            @Override
                            public void added() {
                                added.incrementAndGet();
                            }
                        };
                    }
                });
        builder.controller(maps("maps", LONG, List.of()), recording("maps"));
        runtime = builder.build();
        runtime.start();
        // ready, and every key of the initial list taken from the queue: each was passed or skipped by now
        await("the initial list's keys handled", () -> runtime.ready() && runtime.statuses().get(0).queued() == 0
                && runtime.statuses().get(0).processing() == 0);
        assertEquals(List.of(), passes, "no shard owned: no pass");

        executor.execute(shards::run);
        try {
            await("every ConfigMap of shard 0 passed once it is owned", () -> passes.containsAll(ours));
            assertEquals(List.of(0), shards.owned());
            await("the initial list's keys handled", () -> runtime.statuses().get(0).queued() == 0
                    && runtime.statuses().get(0).processing() == 0);
            assertEquals(Set.copyOf(ours), Set.copyOf(passes), "only the keys of the shard owned");
            addedKeys = added.get();
            expectedAdds = names.size() + ours.size();
        } finally {
            shards.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void aNamespaceSetChangesWhileRunningListingWhatJoinsAndStoppingWhatLeaves() throws Exception {
        api.objects("configmaps", "a");
        String configMaps = "/api/v1/namespaces/%s/configmaps";
        String secrets = "/api/v1/namespaces/%s/secrets";
        List<String> released = new CopyOnWriteArrayList<>();
        KubeHttp http = api.http();
        runtime = Engine.builder(http, http).threads(executor, scheduler).observer(new PassObserver() {
            @Override
            public void passed(String controller, dev.mooring.engine.pass.Outcome.Kind outcome, Duration duration) {
            }

            @Override
            public void informerReleased(dev.mooring.engine.informer.Informer<?> informer) {
                released.add(informer.describe());
            }
        }).controller(maps("teams", LONG, List.of(V1Secret.class)).toBuilder().namespaces(new java.util.LinkedHashSet<>(List.of("ops", "dev")))
                .build(), recording("teams")).controller(maps("single", LONG, List.of()), recording("single"))
                .build();
        runtime.start();
        await("the pass of ops/a", () -> passes.contains("teams a"));
        assertEquals(Set.of(configMaps.formatted("ops"), configMaps.formatted("dev"), secrets.formatted("ops"), secrets.formatted("dev")),
                Set.copyOf(api.listedPaths()), "the set's controller lists each kind in each namespace; single shares ops's ConfigMaps");
        assertEquals(Set.of("ops", "dev"), runtime.namespacesOf("teams"));
        assertEquals(5, runtime.informerCount(), "the set's own four (not shared with single), and single's");

        runtime.watchNamespaces("teams", Set.of("dev", "qa"));
        await("qa listed", () -> api.listedPaths().containsAll(List.of(configMaps.formatted("qa"), secrets.formatted("qa"))));
        assertEquals(Set.of("dev", "qa"), runtime.namespacesOf("teams"));
        assertEquals(Set.of("ConfigMap in ops", "Secret in ops"), Set.copyOf(released), "their metrics go with them");
        assertEquals(1, log.lines().stream().filter(line -> line.equals("INFO Controller teams now watches namespaces [dev, qa]"
                + " (were [dev, ops])")).count(), log.lines().toString());
        runtime.watchNamespaces("teams", Set.of("qa", "dev"));
        assertEquals(1, log.lines().stream().filter(line -> line.contains("now watches")).count(), "no change, nothing logged");
        assertEquals(List.of("ops"), runtime.informers().stream().filter(informer -> "ops".equals(informer.namespace()))
                .map(informer -> informer.namespace()).toList(), "of ops, only single's informer is left");
        assertEquals(List.of(), runtime.namespacesOf("single").stream().toList(), "single watches no set");
        IllegalArgumentException single = assertThrows(IllegalArgumentException.class, () -> runtime.watchNamespaces("single", Set.of("qa")));
        assertEquals("Controller single watches namespace ops, not a set that may change (@Controller(namespaces) or"
                + " mooring.controller.single.namespaces)", single.getMessage());
        assertThrows(IllegalArgumentException.class, () -> runtime.watchNamespaces("nothing", Set.of("qa")));
        assertTrue(runtime.ready(), "a change of the set leaves the controller ready");
    }

    @Test
    void aNamespaceSetAskedForBeforeTheStartIsTheOneWatchedOnceStarted() throws Exception {
        api.objects("configmaps", "a");
        OperatorRuntime runtime = build(maps("teams", LONG, List.of()).toBuilder()
                .namespaces(new java.util.LinkedHashSet<>(List.of("dev"))).build());
        runtime.watchNamespaces("teams", Set.of("ops"));
        runtime.start();
        await("the pass of ops/a", () -> passes.contains("teams a"));
        assertEquals(Set.of("ops"), runtime.namespacesOf("teams"));
        assertEquals(List.of("ops"), runtime.informers().stream().map(informer -> informer.namespace()).toList());
    }

    @Test
    void thePrimaryKindIsListedBeforeAnyDependency() throws Exception {
        api.objects("configmaps", "a");
        api.objects("secrets", "s");
        CountDownLatch primaries = api.hold("configmaps");
        build(maps("maps", LONG, List.of(V1Secret.class))).start();

        await("the primary's list asked for", () -> api.asked("configmaps"));
        Thread.sleep(300); // a dependency started too early would have listed by now
        assertEquals(List.of("configmaps"), api.lists(), "the Secrets informer does not start while the primary's list is out");
        primaries.countDown();
        await("ready", runtime::ready);
        assertEquals(List.of("configmaps", "secrets"), api.lists());
    }

    @Test
    void aWarmStandbyListsAndQueuesButRunsNoPassUntilStarted() throws Exception {
        api.objects("configmaps", "a");
        build(maps("maps", LONG, List.of()), maps("other", LONG, List.of())).warmUp(); // two controllers, one informer

        await("the ConfigMaps listed", () -> api.asked("configmaps"));
        await("the ConfigMap queued", () -> runtime.statuses().get(0).queued() == 1);
        Thread.sleep(300);
        assertEquals(List.of(), passes, "a standby runs no pass");
        assertEquals(ControllerState.STARTING, runtime.statuses().get(0).state());

        CountDownLatch handOverList = api.hold("configmaps");
        runtime.takeOver(); // elected
        await("the hand-over's list asked for", () -> api.lists().size() == 2);
        Thread.sleep(300);
        assertEquals(List.of(), passes, "no pass before the cache listed again after the hand-over");
        handOverList.countDown();
        await("the pass of ConfigMap a", () -> passes.contains("maps a"));
        await("ready", runtime::ready);
        await("the pass of other's ConfigMap a", () -> passes.contains("other a"));
        assertEquals(List.of("0", "none"), api.listVersions(), "the standby's list from the watch cache, then one consistent one for"
                + " both controllers: whatever the last leader wrote is in the cache");
        assertEquals(0, runtime.relists(), "a hand-over's list is not a relist of an expired history");
    }

    @Test
    void aColdStandbyThatTakesOverListsConsistentlyOnceAndAStartListsFromTheWatchCache() throws Exception {
        api.objects("configmaps", "a");
        build(maps("maps", LONG, List.of()), maps("other", LONG, List.of())).takeOver();
        await("the passes of ConfigMap a", () -> passes.containsAll(List.of("maps a", "other a")));
        assertEquals(List.of("none"), api.listVersions(), "one list, consistent: whatever the last leader wrote is in it");

        runtime.stop();
        passes.clear();
        api.listVersions.clear();
        build(maps("maps", LONG, List.of())).start();
        await("the pass of ConfigMap a", () -> passes.contains("maps a"));
        assertEquals(List.of("0"), api.listVersions(), "one replica, no take-over: from the watch cache");
    }

    @Test
    void withoutReadYourWritesAWarmStandbyStartsWithoutListingAgain() throws Exception {
        api.objects("configmaps", "a");
        KubeHttp http = api.http();
        runtime = Engine.builder(http, http).threads(executor, scheduler)
                .readYourWrites(dev.mooring.engine.informer.ReadYourWrites.Settings.OFF)
                .controller(maps("maps", LONG, List.of()), recording("maps")).build();
        runtime.warmUp();
        await("the ConfigMap queued", () -> runtime.statuses().get(0).queued() == 1);
        runtime.takeOver();
        await("the pass of ConfigMap a", () -> passes.contains("maps a"));
        assertEquals(List.of("0"), api.listVersions(), "takeOver() after warmUp() lists nothing again");
    }

    @Test
    void anInitialListSlowerThanTheSyncTimeoutFailsTheControllerAndStopsItsSiblings() throws Exception {
        api.objects("configmaps", "a");
        api.hold("secrets");
        AtomicInteger told = new AtomicInteger();
        build(maps("slow", Duration.ofMillis(300), List.of(V1Secret.class)), maps("other", LONG, List.of()));
        runtime.onFailure(told::incrementAndGet);
        runtime.start();

        await("unhealthy", () -> !runtime.healthy());
        assertEquals(List.of("controller slow: The initial list of Secret in ops did not complete within the controller's"
                + " sync-timeout of 0.3 s (mooring.controller.slow.sync-timeout)"), runtime.failures());
        await("the sibling stopped", () -> state("other") == ControllerState.STOPPED);
        assertWatchesEnd();
        assertEquals(ControllerState.FAILED, state("slow"));
        assertFalse(runtime.ready());
        assertEquals(1, told.get(), "the failure listener is told once");
        assertTrue(log.lines().stream().anyMatch(line -> line.startsWith("SEVERE Controller slow failed; stopping its sibling")),
                log.lines().toString());
    }

    @Test
    void aRefusedDiscoveryFailsTheControllerAtOnce() throws Exception {
        api.discovery = 403;
        build(maps("maps", LONG, List.of())).start();

        await("unhealthy", () -> !runtime.healthy());
        String failure = runtime.failures().get(0);
        assertTrue(failure.startsWith("controller maps: ") && failure.contains("403") && !failure.contains("retried until"), failure);
    }

    @Test
    void aDiscoveryThatKeepsFailingFailsTheControllerAtTheEndOfItsSyncTimeoutNamingIt() throws Exception {
        api.discovery = 503;
        build(maps("maps", Duration.ofSeconds(2), List.of())).start();

        await("unhealthy", () -> !runtime.healthy());
        String failure = runtime.failures().get(0);
        assertTrue(failure.startsWith("controller maps: GET /api failed with 503") && failure.endsWith("(retried until the controller's"
                + " sync-timeout of 2.0 s (mooring.controller.maps.sync-timeout) left no time for another attempt)"), failure);
        assertTrue(api.discoveries.get() > 2, "retried: " + api.discoveries.get());
    }

    @Test
    void failingTheRuntimeFailsEveryControllerAndTellsTheListenersOnce() throws Exception {
        api.objects("configmaps", "a");
        AtomicInteger told = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        build(maps("one", LONG, List.of()), maps("two", LONG, List.of()));
        runtime.onFailure(() -> {
            told.incrementAndGet();
            throw new IllegalStateException("a listener that fails");
        });
        runtime.onFailure(second::incrementAndGet);
        runtime.start();
        await("ready", runtime::ready);

        runtime.fail(new IllegalStateException("leadership lost"));
        assertEquals(List.of(ControllerState.FAILED, ControllerState.FAILED), runtime.statuses().stream().map(ControllerStatus::state).toList(),
                "each controller fails with the cause, none is merely stopped as a sibling");
        assertEquals(List.of("leadership lost", "leadership lost"), runtime.statuses().stream().map(ControllerStatus::failure).toList());
        assertEquals(1, told.get());
        assertEquals(1, second.get(), "a failing listener does not keep the next from being told");
        runtime.fail(new IllegalStateException("again"));
        assertEquals(1, second.get(), "told once");
        assertFalse(runtime.healthy());
        assertWatchesEnd();
    }

    @Test
    void aRuntimeWithoutControllersFailsToo() {
        AtomicInteger told = new AtomicInteger();
        build();
        runtime.onFailure(told::incrementAndGet);
        assertTrue(runtime.healthy() && runtime.ready(), "nothing to wait for");

        runtime.fail(new IllegalStateException("leadership lost"));
        assertEquals(List.of("leadership lost"), runtime.failures());
        assertFalse(runtime.healthy());
        assertEquals(1, told.get());
        assertEquals(Duration.ZERO, runtime.longestShutdownTimeout());
    }

    @Test
    void theStopWaitsForTheLongestShutdownTimeoutNotTheirSum() {
        build(maps("short", LONG, List.of()), ControllerDefinition.builder("long", V1ConfigMap.class).namespace("ops").workers(1)
                .resync(Duration.ofHours(10)).syncTimeout(LONG).shutdownTimeout(Duration.ofSeconds(7)).build());
        assertEquals(Duration.ofSeconds(7), runtime.longestShutdownTimeout());
    }

    @Test
    void aKeyCanBeEnqueuedOnlyForAControllerThatExists() throws Exception {
        api.objects("configmaps", "a");
        build(maps("maps", LONG, List.of())).start();
        await("ready", runtime::ready);

        await("the first pass", () -> passes.contains("maps a"));
        runtime.enqueue("maps", new ObjectKey("ops", "a"));
        await("the asked pass", () -> passes.stream().filter("maps a"::equals).count() == 2);
        assertEquals("No controller named 'nope'; controllers: [maps]",
                assertThrows(IllegalArgumentException.class, () -> runtime.enqueue("nope", new ObjectKey("ops", "x"))).getMessage());
    }

    @Test
    void aStoppedRuntimeRunsNoMorePassesAndItsInformersStop() throws Exception {
        api.objects("configmaps", "a");
        build(maps("maps", LONG, List.of())).start();
        await("the first pass", () -> passes.contains("maps a"));

        runtime.stop();
        assertTrue(runtime.awaitStopped(Duration.ofSeconds(10)));
        assertEquals(ControllerState.STOPPED, state("maps"));
        assertWatchesEnd();
        assertTrue(runtime.healthy(), "a stop is not a failure");
        assertFalse(runtime.ready());
    }

    @Test
    void aStartAfterAStopStartsNoWorkers() throws Exception {
        api.objects("configmaps", "a");
        CountDownLatch list = api.hold("configmaps");
        build(maps("maps", LONG, List.of())).warmUp();
        await("the list asked for", () -> api.asked("configmaps"));
        runtime.stop();
        list.countDown();
        runtime.start();

        Thread.sleep(300);
        assertEquals(List.of(), passes);
        assertEquals(ControllerState.STOPPED, state("maps"));
    }

    /** No informer watches any more: a running one would watch again every 200 ms. */
    private void assertWatchesEnd() throws InterruptedException {
        Thread.sleep(300); // a watch open when the informers stopped may still end and count
        int watches = api.watches.get();
        Thread.sleep(800);
        assertEquals(watches, api.watches.get(), "no watch after the informers stopped");
    }

    @Test
    void theBuildersOptionsReachThePassesAndADesiredStateBeanIsAdapted() throws Exception {
        api.objects("configmaps", "a");
        List<String> scoped = new CopyOnWriteArrayList<>();
        List<String> observed = new CopyOnWriteArrayList<>();
        dev.mooring.api.DesiredStateReconciler<V1ConfigMap> desired = (map, context) -> {
            passes.add("desired " + map.getMetadata().getName() + " in " + context.controllerName());
            return map;
        };
        KubeHttp http = api.http();
        runtime = Engine.builder(http, http).threads(executor, scheduler)
                .requestScope(() -> {
                    scoped.add("activated");
                    return () -> scoped.add("closed");
                })
                .observer((controller, outcome, duration) -> observed.add(controller + " " + outcome))
                .retry(new OperatorRuntime.Retry(Duration.ofMillis(10), Duration.ofSeconds(1)))
                .operatorNamespace("operators")
                .clock(java.time.Clock.systemUTC())
                .controller(maps("desired", LONG, List.of()), desired, null, dev.mooring.engine.model.BeanMethods.NONE)
                .build();
        runtime.start();

        await("the pass", () -> passes.contains("desired a in desired"));
        await("observed", () -> observed.contains("desired SUCCESS"));
        assertEquals(List.of("activated", "closed"), scoped.subList(0, 2), "the pass ran in an activated request scope");
    }

    @Test
    void ownedAndWatchedKindsAndIndexesAreWiredAndThePassGetsALiveClient() throws Exception {
        api.objects("configmaps", "a", "b");
        List<String> seen = new CopyOnWriteArrayList<>();
        dev.mooring.engine.model.WatchMapper bySecret = new dev.mooring.engine.model.WatchMapper(V1Secret.class, "the test's mapper",
                secret -> List.of(new ObjectKey("ops", secret.getMetadata().getName().replace("for-", ""))));
        dev.mooring.engine.model.CacheIndex byTier = new dev.mooring.engine.model.CacheIndex(V1ConfigMap.class, "by-tier", "the test",
                object -> List.of(object.getMetadata().getLabels().get("tier")));
        ControllerDefinition definition = ControllerDefinition.builder("wired", V1ConfigMap.class).namespace("ops").workers(1)
                .resync(Duration.ofHours(10)).syncTimeout(LONG).shutdownTimeout(Duration.ofSeconds(5))
                .owns(List.of(V1Secret.class)).watches(List.of(bySecret)).indexes(List.of(byTier)).build();
        KubeHttp http = api.http();
        runtime = Engine.builder(http, http).threads(executor, scheduler).controller(definition, (Reconciler<V1ConfigMap>) (map, context) -> {
            String name = map.getMetadata().getName();
            seen.add(name + " live " + context.client().get(V1ConfigMap.class, "ops", name).isPresent() + " indexed "
                    + context.cached(V1ConfigMap.class).indexed("by-tier", name + "-tier").size());
            return Result.done();
        }).build();
        runtime.start();
        await("ready", runtime::ready);
        await("both passes", () -> seen.size() == 2);
        assertEquals(List.of("a live true indexed 1", "b live true indexed 1"), seen.stream().sorted().toList());
        assertEquals(2, runtime.informerCount(), "ConfigMaps and Secrets, the watch sharing the owned kind's informer");
        assertEquals(2, runtime.informers().size());
        assertEquals(0, runtime.relists());

        api.added("secrets", ScriptedApi.object("Secret", "for-a", null)); // a watched change: mapped to ConfigMap a
        await("the mapped pass", () -> seen.size() == 3);
        api.added("secrets", ScriptedApi.object("Secret", "child", "b")); // an owned child's change: its owner
        await("the owner's pass", () -> seen.size() == 4);
        assertEquals(List.of("a live true indexed 1", "b live true indexed 1"), seen.subList(2, 4).stream().sorted().toList());
    }

    @Test
    void aStopInterruptsAPassPastTheShutdownTimeoutAndSaysWhenOneIgnoresIt() throws Exception {
        api.objects("configmaps", "deaf", "polite");
        java.util.concurrent.atomic.AtomicBoolean leave = new java.util.concurrent.atomic.AtomicBoolean();
        List<String> ends = new CopyOnWriteArrayList<>();
        CountDownLatch both = new CountDownLatch(2);
        KubeHttp http = api.http();
        ControllerDefinition quick = ControllerDefinition.builder("quick", V1ConfigMap.class).namespace("ops").workers(2)
                .resync(Duration.ofHours(10)).syncTimeout(LONG).shutdownTimeout(Duration.ZERO).build();
        runtime = Engine.builder(http, http).threads(executor, scheduler).controller(quick, (Reconciler<V1ConfigMap>) (map, context) -> {
            both.countDown();
            if (map.getMetadata().getName().equals("deaf")) {
                while (!leave.get()) {
                    Thread.onSpinWait();
                }
                ends.add("deaf left");
            } else {
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    ends.add("polite interrupted");
                    throw e;
                }
            }
            return Result.done();
        }).build();
        runtime.start();
        assertTrue(both.await(30, TimeUnit.SECONDS), "both passes running");
        runtime.stop();
        await("the polite pass interrupted", () -> ends.contains("polite interrupted"));
        assertFalse(runtime.awaitStopped(Duration.ofMillis(200)), "the deaf pass still runs");
        assertTrue(log.lines().contains("WARNING A reconcile of controller quick still runs 0 s after its controller stopped: it ignores"
                + " interrupts"), log.lines().toString());
        leave.set(true);
        assertTrue(runtime.awaitStopped(Duration.ofSeconds(30)));
    }

    @Test
    void aStopEndsADiscoveryThatKeepsFailing() throws Exception {
        api.discovery = 503;
        build(maps("maps", LONG, List.of())).start();
        await("retrying", () -> api.discoveries.get() >= 2);
        runtime.stop();
        Thread.sleep(1500); // longer than the retry's backoff so far: a discovery still retrying would ask again
        int asked = api.discoveries.get();
        Thread.sleep(1500);
        assertEquals(asked, api.discoveries.get(), "no discovery after the stop");
        assertTrue(runtime.healthy(), "a stop is not a failure");
    }

    @Test
    void aStartUpThatCannotGetItsThreadsFailsEveryController() throws Exception {
        api.objects("configmaps", "a");
        java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();
        ExecutorService oneTask = new java.util.concurrent.AbstractExecutorService() {
            @Override
            public void execute(Runnable command) {
                if (accepted.getAndIncrement() > 0) {
                    throw new java.util.concurrent.RejectedExecutionException("no more threads");
                }
                executor.execute(command);
            }

            @Override
            public void shutdown() {
            }

            @Override
            public List<Runnable> shutdownNow() {
                return List.of();
            }

            @Override
            public boolean isShutdown() {
                return false;
            }

            @Override
            public boolean isTerminated() {
                return false;
            }

            @Override
            public boolean awaitTermination(long timeout, TimeUnit unit) {
                return true;
            }
        };
        KubeHttp http = api.http();
        runtime = Engine.builder(http, http).threads(oneTask, scheduler).controller(maps("maps", LONG, List.of()), recording("maps"))
                .build();
        runtime.start();
        await("failed", () -> !runtime.healthy());
        assertEquals(ControllerState.FAILED, state("maps"));
        assertTrue(runtime.failures().get(0).contains("no more threads"), runtime.failures().toString());
        assertTrue(log.lines().stream().anyMatch(line -> line.startsWith("SEVERE Mooring start-up failed")), log.lines().toString());
    }

    private ControllerState state(String controller) {
        return runtime.statuses().stream().filter(status -> status.name().equals(controller)).findFirst()
                .map(ControllerStatus::state).orElseThrow();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + LONG.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + LONG + ": " + what);
            }
            Thread.sleep(10);
        }
    }

    /**
     * Aggregated discovery of ConfigMaps and Secrets, lists of the objects given (each held until
     * released if asked), and watches that stay quiet for a moment and end.
     */
    private static final class ScriptedApi {
        private final Map<String, List<String>> objects = new ConcurrentHashMap<>();
        private final Map<String, CountDownLatch> held = new ConcurrentHashMap<>();
        private final List<String> lists = new CopyOnWriteArrayList<>();
        private final List<String> listedPaths = new CopyOnWriteArrayList<>();
        /** The resourceVersion each list asked for ("none" for a consistent list), in order. */
        final List<String> listVersions = new CopyOnWriteArrayList<>();
        private final Map<String, java.util.concurrent.ConcurrentLinkedDeque<String>> events = new ConcurrentHashMap<>();
        final AtomicInteger discoveries = new AtomicInteger();
        final AtomicInteger watches = new AtomicInteger();
        /** The status discovery answers with; 200 serves the kinds. */
        volatile int discovery = 200;

        KubeHttp http() {
            ApiClient client = new ApiClient().setBasePath("http://api.invalid");
            client.setHttpClient(new OkHttpClient.Builder().readTimeout(Duration.ofSeconds(60))
                    .addInterceptor(chain -> answer(chain.request())).build());
            return new KubeHttp(client);
        }

        void objects(String resource, String... names) {
            objects.put(resource, List.of(names));
        }

        CountDownLatch hold(String resource) {
            return held.computeIfAbsent(resource, r -> new CountDownLatch(1));
        }

        void releaseAll() {
            held.values().forEach(CountDownLatch::countDown);
        }

        boolean asked(String resource) {
            return lists.contains(resource);
        }

        /** The paths listed so far, in order. */
        List<String> listedPaths() {
            return List.copyOf(listedPaths);
        }

        /** The resourceVersion each list so far asked for, "none" for a consistent one. */
        List<String> listVersions() {
            return List.copyOf(listVersions);
        }

        /** The resources listed so far, in order. */
        List<String> lists() {
            return List.copyOf(lists);
        }

        private Response answer(Request request) throws java.io.IOException {
            String path = request.url().encodedPath();
            if (path.startsWith(LEASES)) {
                return lease(request, path);
            }
            if (path.equals("/api") || path.equals("/apis")) {
                discoveries.incrementAndGet();
                if (discovery != 200) {
                    return respond(request, discovery, "{\"kind\":\"Status\",\"code\":" + discovery + ",\"message\":\"scripted\"}");
                }
                return respond(request, 200, path.equals("/apis")
                        ? "{\"kind\":\"APIGroupDiscoveryList\",\"apiVersion\":\"apidiscovery.k8s.io/v2\",\"items\":[]}"
                        : """
                        {"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","items":[
                          {"metadata":{"name":""},"versions":[{"version":"v1","resources":[
                            {"resource":"configmaps","responseKind":{"kind":"ConfigMap"},"scope":"Namespaced"},
                            {"resource":"secrets","responseKind":{"kind":"Secret"},"scope":"Namespaced"}]}]}]}""");
            }
            java.util.regex.Matcher single = java.util.regex.Pattern.compile("/api/v1/namespaces/ops/(configmaps|secrets)/([a-z0-9-]+)")
                    .matcher(path);
            if (single.matches()) {
                String kind = single.group(1).equals("secrets") ? "Secret" : "ConfigMap";
                return objects.getOrDefault(single.group(1), List.of()).contains(single.group(2))
                        ? respond(request, 200, object(kind, single.group(2), null))
                        : respond(request, 404, "{\"kind\":\"Status\",\"code\":404,\"reason\":\"NotFound\"}");
            }
            String resource = path.substring(path.lastIndexOf('/') + 1);
            if ("true".equals(request.url().queryParameter("watch"))) {
                watches.incrementAndGet();
                String event = events.getOrDefault(resource, new java.util.concurrent.ConcurrentLinkedDeque<>()).poll();
                if (event != null) {
                    return respond(request, 200, event + "\n");
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return respond(request, 200, "");
            }
            lists.add(resource);
            listedPaths.add(path);
            listVersions.add(java.util.Objects.requireNonNullElse(request.url().queryParameter("resourceVersion"), "none"));
            CountDownLatch hold = held.get(resource);
            if (hold != null) {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted");
                }
            }
            String kind = resource.equals("secrets") ? "Secret" : "ConfigMap";
            StringBuilder items = new StringBuilder();
            // the objects live in ops: a list of another namespace has none
            boolean elsewhere = path.startsWith("/api/v1/namespaces/") && !path.startsWith("/api/v1/namespaces/ops/");
            for (String name : elsewhere ? List.<String>of() : objects.getOrDefault(resource, List.of())) {
                items.append(items.isEmpty() ? "" : ",").append(object(kind, name, null));
            }
            return respond(request, 200, "{\"apiVersion\":\"v1\",\"kind\":\"" + kind + "List\",\"metadata\":{\"resourceVersion\":\"10\"},"
                    + "\"items\":[" + items + "]}");
        }

        private static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/ops/leases";
        /** Leases by name, as the API server keeps them: a resourceVersion per write, 409 on a stale one or a second create. */
        private final Map<String, com.google.gson.JsonObject> leases = new java.util.TreeMap<>();
        private int leaseVersion;

        private Response lease(Request request, String path) throws java.io.IOException {
            synchronized (leases) {
                String method = request.method();
                if (method.equals("GET") && path.equals(LEASES)) {
                    com.google.gson.JsonArray items = new com.google.gson.JsonArray();
                    leases.values().forEach(lease -> items.add(lease.deepCopy()));
                    return respond(request, 200, "{\"kind\":\"LeaseList\",\"apiVersion\":\"coordination.k8s.io/v1\",\"items\":" + items + "}");
                }
                String name = path.substring(path.lastIndexOf('/') + 1);
                if (method.equals("GET") || method.equals("DELETE")) {
                    com.google.gson.JsonObject lease = method.equals("GET") ? leases.get(name) : leases.remove(name);
                    return lease == null ? respond(request, 404, "{\"kind\":\"Status\",\"code\":404,\"reason\":\"NotFound\"}")
                            : respond(request, 200, lease.toString());
                }
                okio.Buffer buffer = new okio.Buffer();
                request.body().writeTo(buffer);
                com.google.gson.JsonObject written = com.google.gson.JsonParser.parseString(buffer.readUtf8()).getAsJsonObject();
                com.google.gson.JsonObject metadata = written.getAsJsonObject("metadata");
                if (method.equals("POST")) {
                    name = metadata.get("name").getAsString();
                    if (leases.containsKey(name)) {
                        return respond(request, 409, "{\"kind\":\"Status\",\"code\":409,\"reason\":\"AlreadyExists\"}");
                    }
                    metadata.addProperty("uid", "u-" + name);
                } else if (!leases.containsKey(name)
                        || !leases.get(name).getAsJsonObject("metadata").get("resourceVersion").equals(metadata.get("resourceVersion"))) {
                    return respond(request, 409, "{\"kind\":\"Status\",\"code\":409,\"reason\":\"Conflict\"}");
                }
                metadata.addProperty("resourceVersion", Integer.toString(++leaseVersion));
                leases.put(name, written);
                return respond(request, method.equals("POST") ? 201 : 200, written.toString());
            }
        }

        /** Lease {@code name} held by {@code holder}, advertising an hour: live for as long as a test runs. */
        void heldLease(String name, String holder) {
            synchronized (leases) {
                leases.put(name, com.google.gson.JsonParser.parseString("{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\","
                        + "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ops\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\""
                        + ++leaseVersion + "\"},\"spec\":{\"holderIdentity\":\"" + holder + "\",\"leaseDurationSeconds\":3600}}").getAsJsonObject());
            }
        }

        /** A ConfigMap or Secret in ops; with {@code owner}, controlled by ConfigMap {@code owner}. */
        static String object(String kind, String name, String owner) {
            return "{\"apiVersion\":\"v1\",\"kind\":\"" + kind + "\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ops\","
                    + "\"uid\":\"u-" + name + "\",\"resourceVersion\":\"" + (owner == null ? "5" : "11") + "\",\"labels\":{\"tier\":\"" + name
                    + "-tier\"}" + (owner == null ? "" : ",\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\""
                    + owner + "\",\"uid\":\"u-" + owner + "\",\"controller\":true}]") + "}}";
        }

        /** Sends {@code object} as an ADDED event on the next watch of {@code resource}. */
        void added(String resource, String object) {
            events.computeIfAbsent(resource, r -> new java.util.concurrent.ConcurrentLinkedDeque<>())
                    .add("{\"type\":\"ADDED\",\"object\":" + object + "}");
        }

        private static Response respond(Request request, int code, String body) {
            return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(code).message("scripted")
                    .body(ResponseBody.create(body, MediaType.get("application/json"))).build();
        }
    }
}
