package dev.mooring.engine.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The order in which one replica's work starts and stops in each mode, as its lifecycle events
 * and a recording workload see it: one list of what happened, in order. Lease timing runs on a
 * fake clock that stays put (a Lease held stays held, a leader stays leader, until the scripted
 * API server says otherwise); the loops run on threads of their own, a round every 20 ms.
 */
class ReplicaCoordinatorTest {

    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofMillis(20);
    private static final Duration LONG = Duration.ofSeconds(30);

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final ScriptedLeases api = new ScriptedLeases();
    private final ExecutorService loops = Executors.newCachedThreadPool();
    /** What happened, in order: the workload's calls and the lifecycle events. */
    private final List<String> happened = new CopyOnWriteArrayList<>();
    private final LifecycleEvents events = new LifecycleEvents(event -> happened.add(event.type() + " " + event.scope()
            + (event.identity() == null ? "" : " " + event.identity()) + (event.error() == null ? "" : ": " + event.error().getMessage())));
    private ReplicaCoordinator coordinator;

    @AfterEach
    void stopLoops() throws InterruptedException {
        if (coordinator != null) {
            coordinator.elector().ifPresent(elector -> elector.stop(Duration.ofSeconds(5)));
            coordinator.shards().ifPresent(shards -> shards.stop(Duration.ofSeconds(5)));
        }
        loops.shutdownNow();
        loops.awaitTermination(10, TimeUnit.SECONDS);
    }

    private KubeHttp http() {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> api.answer(chain.request())).build());
        return new KubeHttp(client);
    }

    private ReplicaCoordinator coordinator(ReplicaMode mode) {
        coordinator = new ReplicaCoordinator(mode, http(), loops, events, now::get);
        return coordinator;
    }

    private static ElectionSettings election(String name) {
        return new ElectionSettings(name, "ops", "me", LEASE, RENEW, RETRY);
    }

    /** Lease {@code name} held by {@code holder}, advertising an hour. */
    private void held(String name, String holder) {
        synchronized (api) {
            api.leases.put(name, JsonParser.parseString("{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{"
                    + "\"name\":\"" + name + "\",\"namespace\":\"ops\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\"" + ++api.version
                    + "\"},\"spec\":{\"holderIdentity\":\"" + holder + "\",\"leaseDurationSeconds\":3600}}").getAsJsonObject());
        }
    }

    private String holder(String name) {
        synchronized (api) {
            return api.leases.containsKey(name) ? api.holder(name) : null;
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + LONG.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + LONG + ": " + what);
            }
            Thread.sleep(5);
        }
    }

    @Test
    void oneReplicaStartsAtOnceAndDrainsBeforeItsShutdown() {
        ReplicaCoordinator replica = coordinator(new ReplicaMode.Single());
        KubeHttp requests = http();
        assertSame(requests, replica.guard(requests), "nothing to guard");
        Work work = new Work();
        replica.start(work);
        assertEquals(List.of("STARTUP PROCESS", "start"), happened);
        assertTrue(replica.ready() && replica.readyToServe() && replica.started() && replica.leader());
        assertEquals(null, replica.leadership());
        assertEquals(null, replica.sharding());
        replica.stop();
        assertEquals(List.of("STARTUP PROCESS", "start", "stop", "SHUTDOWN PROCESS"), happened);
        assertThrows(IllegalStateException.class, () -> replica.start(new Work()), "one start");
    }

    @Test
    void aFailedWorkloadIsOneProcessFailureAndUnhealthy() {
        ReplicaCoordinator replica = coordinator(new ReplicaMode.Single());
        Work work = new Work();
        replica.start(work);
        work.failsItself("controller x: broke");
        work.failsItself("again"); // the workload tells its listeners once; the process failure is said once anyway
        assertEquals(List.of("STARTUP PROCESS", "start", "failed by itself", "FAILURE PROCESS"), happened);
        assertFalse(replica.healthy());
        assertFalse(replica.readyToServe());
        assertFalse(replica.started());
    }

    @Test
    void aWarmStandbyWarmsUpAndStartsItsWorkersOnlyOnceElected() throws Exception {
        held("work", "other");
        ReplicaCoordinator replica = coordinator(new ReplicaMode.LeaderElected(election("work"), true));
        Work work = new Work();
        replica.start(work);
        assertEquals(List.of("STARTUP PROCESS", "warm"), happened, "no election yet: the loop runs on a thread of its own");
        await("in contact as a standby", replica::readyToServe);
        assertTrue(replica.started(), "a standby in contact has started");
        assertFalse(replica.ready(), "not leading");
        assertFalse(replica.leader());
        assertEquals("standby (me, Lease ops/work)", replica.leadership());
        KubeHttp writes = replica.guard(http());
        KubeHttp.WriteRefused refused = assertThrows(KubeHttp.WriteRefused.class,
                () -> writes.send("DELETE", "/api/v1/namespaces/ops/configmaps/a", Map.of(), null, null, null));
        assertTrue(refused.getMessage().contains("this replica's leadership of Lease ops/work expired"), refused.getMessage());
        assertEquals(List.of("STARTUP PROCESS", "warm"), happened, "no worker while another leads");

        held("work", ""); // released by the other
        await("elected", () -> happened.contains("take over"));
        assertEquals(List.of("STARTUP PROCESS", "warm", "LEADERSHIP_ACQUIRED LEADER me", "take over"), happened);
        assertTrue(replica.leader());
        assertEquals("leader (me, Lease ops/work)", replica.leadership());
        assertEquals("me", holder("work"));
    }

    @Test
    void aColdStandbyDoesNotWarmUp() throws Exception {
        ReplicaCoordinator replica = coordinator(new ReplicaMode.LeaderElected(election("work"), false));
        replica.start(new Work());
        await("elected", () -> happened.contains("take over"));
        assertEquals(List.of("STARTUP PROCESS", "LEADERSHIP_ACQUIRED LEADER me", "take over"), happened);
    }

    @Test
    void aLostLeaderFailsItsWorkloadAwaitsItsWorkersThenReportsTheLossAndTheProcessFailure() throws Exception {
        ReplicaCoordinator replica = coordinator(new ReplicaMode.LeaderElected(election("work"), false));
        replica.start(new Work());
        await("elected", () -> happened.contains("take over"));
        synchronized (api) {
            api.leases.remove("work"); // deleted while it leads
        }
        await("the process failure", () -> happened.contains("FAILURE PROCESS: Leader Lease was deleted"));
        assertEquals(List.of("STARTUP PROCESS", "LEADERSHIP_ACQUIRED LEADER me", "take over", "fail: Leader Lease was deleted",
                "await", "LEADERSHIP_LOST LEADER me: Leader Lease was deleted", "FAILURE PROCESS: Leader Lease was deleted"), happened);
        replica.stop();
        assertEquals("SHUTDOWN PROCESS", happened.get(happened.size() - 1), "the term ended once: no leader-scope SHUTDOWN");
        assertEquals(1, happened.stream().filter(line -> line.startsWith("LEADERSHIP_LOST")).count());
        assertEquals(null, holder("work"), "a lost leader does not make the Lease again");
    }

    @Test
    void aStoppedLeaderDrainsWhileItStillHoldsTheLeaseThenEndsItsTermThenReleases() throws Exception {
        ReplicaCoordinator replica = coordinator(new ReplicaMode.LeaderElected(election("work"), false));
        Work work = new Work();
        work.onStop = () -> happened.add("Lease held by " + holder("work"));
        replica.start(work);
        await("elected", () -> happened.contains("take over"));
        replica.stop();
        assertEquals(List.of("STARTUP PROCESS", "LEADERSHIP_ACQUIRED LEADER me", "take over", "stop", "Lease held by me", "await",
                "SHUTDOWN LEADER me", "SHUTDOWN PROCESS"), happened);
        assertEquals("", holder("work"), "released after the drain");
    }

    @Test
    void aLeaderWhoseWorkloadFailsEndsItsTermAndGivesTheLeaseUp() throws Exception {
        ReplicaCoordinator replica = coordinator(new ReplicaMode.LeaderElected(election("work"), false));
        Work work = new Work();
        replica.start(work);
        await("elected", () -> happened.contains("take over"));
        work.failsItself("controller x: broke");
        await("released", () -> "".equals(holder("work")));
        assertEquals(List.of("STARTUP PROCESS", "LEADERSHIP_ACQUIRED LEADER me", "take over", "failed by itself", "fail: leadership ended",
                "await", "FAILURE LEADER me", "FAILURE PROCESS"), happened);
        assertFalse(replica.healthy());
    }

    @Test
    void anElectionThatMayNotWriteLeasesFailsTheWorkloadAndSaysWhy() throws Exception {
        api.failWith = 403;
        ReplicaCoordinator replica = coordinator(new ReplicaMode.LeaderElected(election("work"), true));
        replica.start(new Work());
        await("the process failure", () -> happened.stream().anyMatch(line -> line.startsWith("FAILURE PROCESS")));
        assertEquals("fail", happened.get(2).split(":")[0]);
        assertEquals(List.of("STARTUP PROCESS", "warm"), happened.subList(0, 2));
        assertEquals(4, happened.size(), "no leader-scope event without a term: " + happened);
        assertTrue(replica.failures().get(0).startsWith("leader election: "), replica.failures().toString());
        assertFalse(replica.healthy());
    }

    @Test
    void aShardedReplicaStartsAtOnceTakesItsShardsAndFreesThemAfterItsDrain() throws Exception {
        ShardSettings settings = new ShardSettings(election("work"), 2);
        ReplicaCoordinator replica = coordinator(new ReplicaMode.Sharded(settings));
        KubeHttp requests = http();
        assertSame(requests, replica.guard(requests), "writes are guarded per shard by the engine");
        Work work = new Work();
        work.onStop = () -> happened.add("shard 0 held by " + holder("work-shard-0"));
        replica.start(work);
        assertEquals(List.of("STARTUP PROCESS", "start"), happened);
        await("both shards taken", () -> replica.shards().orElseThrow().owned().size() == 2);
        await("ready", replica::ready);
        assertEquals("shards [0, 1] of 2 (me; members [me])", replica.sharding());
        replica.stop();
        assertEquals(List.of("STARTUP PROCESS", "start", "stop", "shard 0 held by me", "SHUTDOWN PROCESS"), happened);
        assertEquals("", holder("work-shard-0"), "freed after the drain");
        assertEquals(null, holder(settings.memberLease()), "left the group");
    }

    @Test
    void aShardLoopThatMayNotWriteLeasesFailsTheWorkload() throws Exception {
        api.failWith = 403;
        ReplicaCoordinator replica = coordinator(new ReplicaMode.Sharded(new ShardSettings(election("work"), 2)));
        replica.start(new Work());
        await("the process failure", () -> happened.stream().anyMatch(line -> line.startsWith("FAILURE PROCESS")));
        assertEquals(List.of("STARTUP PROCESS", "start"), happened.subList(0, 2));
        assertTrue(happened.get(2).startsWith("fail: "), happened.toString());
        assertTrue(replica.failures().get(0).startsWith("sharding: "), replica.failures().toString());
        assertFalse(replica.healthy());
        assertFalse(replica.ready());
    }

    /** A workload that records what it is asked, and fails (telling its listener once) as OperatorRuntime does. */
    private final class Work implements ReplicaCoordinator.Workload {
        private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
        private volatile boolean failed;
        volatile Runnable onStop = () -> {
        };

        @Override
        public void warmUp() {
            happened.add("warm");
        }

        @Override
        public void start() {
            happened.add("start");
        }

        @Override
        public void takeOver() {
            happened.add("take over");
        }

        @Override
        public void fail(Throwable cause) {
            happened.add("fail: " + cause.getMessage());
            failed();
        }

        void failsItself(String why) {
            if (!failed) {
                happened.add("failed by itself");
            }
            failed();
        }

        private void failed() {
            if (!failed) {
                failed = true;
                listeners.forEach(Runnable::run);
            }
        }

        @Override
        public void stop() {
            happened.add("stop");
            onStop.run();
        }

        @Override
        public boolean awaitStopped(Duration timeout) {
            happened.add("await");
            return true;
        }

        @Override
        public Duration longestShutdownTimeout() {
            return Duration.ofSeconds(1);
        }

        @Override
        public void onFailure(Runnable listener) {
            listeners.add(listener);
        }

        @Override
        public boolean healthy() {
            return !failed;
        }

        @Override
        public boolean ready() {
            return !failed;
        }
    }
}
