package dev.mooring.engine.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.LogCapture;
import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's decisions, one round at a time, several replicas on one fake clock, over a
 * scripted store of Leases that compares resourceVersions as the API server does (what the real
 * API server decides is left to ShardingIT).
 */
class ShardCoordinatorTest {

    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofSeconds(2);

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final ScriptedLeases api = new ScriptedLeases();
    private final List<String> events = new ArrayList<>();
    /** What each replica's observer counted: identity + "+" for an acquisition, "!" for a loss. */
    private final Map<String, Integer> counted = new TreeMap<>();

    /** What ShardCoordinator logs during the test. */
    @org.junit.jupiter.api.extension.RegisterExtension
    private final LogCapture log = new LogCapture(ShardCoordinator.class);

    private ShardCoordinator replica(String identity, int shards) {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> api.answer(chain.request())).build());
        ShardCoordinator coordinator = new ShardCoordinator(new KubeHttp(client),
                new ShardSettings(new ElectionSettings("work", "ops", identity, LEASE, RENEW, RETRY), shards), Runnable::run, now::get);
        coordinator.listen(new ShardCoordinator.Listener() {
            @Override
            public void acquired(int shard) {
                events.add(identity + "+" + shard);
            }

            @Override
            public void released(int shard) {
                events.add(identity + "-" + shard);
            }
        });
        coordinator.observe(new ShardCoordinator.Observer() {
            @Override
            public void acquired(int shard) {
                counted.merge(identity + "+", 1, Integer::sum);
            }

            @Override
            public void lost(int shard) {
                counted.merge(identity + "!", 1, Integer::sum);
            }
        });
        return coordinator;
    }

    /** A Lease as stored (resourceVersion 1) with the members of {@code spec}. */
    private static JsonObject lease(String name, String uid, String spec) {
        return JsonParser.parseString("{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"ops\",\"uid\":\"" + uid + "\",\"resourceVersion\":\"1\"},\"spec\":{" + spec + "}}").getAsJsonObject();
    }

    private void advance(Duration by) {
        now.addAndGet(by.toNanos());
    }

    /** Rounds of every replica, in turn, a retry period apart. */
    private void rounds(int count, ShardCoordinator... replicas) {
        for (int i = 0; i < count; i++) {
            for (ShardCoordinator replica : replicas) {
                replica.step();
            }
            advance(RETRY);
        }
    }

    private static void assertDisjointAndComplete(int shards, ShardCoordinator... replicas) {
        TreeSet<Integer> all = new TreeSet<>();
        int total = 0;
        for (ShardCoordinator replica : replicas) {
            all.addAll(replica.owned());
            total += replica.owned().size();
        }
        assertEquals(shards, total, "every shard owned once");
        assertEquals(shards, all.size());
    }

    @Test
    void aLoneReplicaAnnouncesItselfAndTakesEveryShardInItsFirstRound() {
        ShardCoordinator a = replica("a", 4);
        a.step();
        assertEquals(List.of(0, 1, 2, 3), a.owned());
        assertEquals(List.of("a"), a.members());
        assertEquals("a", api.holder("work-shard-2"));
        assertEquals("a", api.holder(new ShardSettings(new ElectionSettings("work", "ops", "a", LEASE, RENEW, RETRY), 4).memberLease()));
        assertEquals(List.of("a+0", "a+1", "a+2", "a+3"), events);
        assertTrue(a.owns(new ObjectKey("default", "anything")));
    }

    @Test
    void aReplicaThatJoinsGetsHalfWithinTwoRoundsAndNoShardIsEverOwnedTwice() {
        ShardCoordinator a = replica("a", 4);
        ShardCoordinator b = replica("b", 4);
        rounds(1, a);
        for (int i = 0; i < 3; i++) {
            b.step();
            assertNoShardOwnedTwice(a, b);
            a.step();
            assertNoShardOwnedTwice(a, b);
            advance(RETRY);
        }
        assertEquals(List.of(0, 1), a.owned(), "a keeps its lowest shards");
        assertEquals(List.of(2, 3), b.owned());
        assertEquals(List.of("a", "b"), a.members());
        assertEquals(List.of("a+0", "a+1", "a+2", "a+3", "a-2", "a-3", "b+2", "b+3"), events);
    }

    private static void assertNoShardOwnedTwice(ShardCoordinator a, ShardCoordinator b) {
        for (int shard : a.owned()) {
            assertFalse(b.owned().contains(shard), "shard " + shard + " owned by both");
        }
    }

    @Test
    void aShardBeingReleasedTakesNoNewKeysButItsRunningPassesMayWriteUntilTheRelease() {
        ShardCoordinator a = replica("a", 2);
        ShardCoordinator b = replica("b", 2);
        rounds(1, a, b); // a takes both; b, second, finds none free
        assertEquals(List.of(0, 1), a.owned());
        ObjectKey key = keyOfShard(new ShardMap(2), 1);
        a.step(); // sees b: marks shard 1 for release
        assertFalse(a.owns(key), "no new pass of the released shard's keys");
        assertTrue(a.writesAllowed(key), "a pass already running may still write");
        advance(RETRY);
        a.step(); // releases it
        assertFalse(a.writesAllowed(key));
        assertEquals("", api.holder("work-shard-1"));
        b.step();
        assertTrue(b.owns(key));
    }

    @Test
    void theShardsOfAFrozenReplicaMoveAfterTheLeaseDurationAndItStopsWritingAtItsRenewDeadline() {
        ShardCoordinator a = replica("a", 4);
        ShardCoordinator b = replica("b", 4);
        ShardCoordinator c = replica("c", 4);
        rounds(4, a, b, c);
        assertDisjointAndComplete(4, a, b, c);
        List<Integer> ofC = c.owned();
        long renewedAt = now.get() - RETRY.toNanos(); // c's last round
        // c stops (SIGSTOP, a partition): it sends nothing more; the others go on
        while (now.get() + RETRY.toNanos() - renewedAt < RENEW.toNanos()) {
            rounds(1, a, b);
            assertDisjointAndComplete(4, a, b, c); // within c's deadline, its shards stay its own
        }
        rounds(1, a, b);
        assertEquals(List.of(), c.owned(), "past its renew deadline c owns nothing");
        for (int shard : ofC) {
            assertFalse(c.writesAllowed(keyOfShard(new ShardMap(4), shard)));
        }
        rounds((int) (LEASE.toSeconds() / RETRY.toSeconds()) + 2, a, b);
        assertEquals(List.of("a", "b"), a.members(), "c's member Lease expired");
        assertDisjointAndComplete(4, a, b);
        assertEquals(2, a.owned().size());
        assertEquals(2, b.owned().size());
        assertEquals(null, counted.get("c!"), "c, frozen, has not counted its loss yet");
        c.step(); // c resumes: its stale shards are counted as lost, and the taken-over Leases are not written
        assertEquals(ofC.size(), counted.get("c!"));
        assertEquals(null, counted.get("a!"), "a released (not lost) what it gave to the others");
        assertEquals(List.of(), c.owned());
        assertDisjointAndComplete(4, a, b);
    }

    /**
     * A shard Lease of a replica that is gone (no member Lease, a record that does not change) is
     * taken over exactly when the record stayed unchanged for the duration that Lease advertises,
     * not this replica's; the takeover writes a new holder's record and counts a transition.
     */
    @Test
    void aGoneHoldersShardIsTakenExactlyAtItsAdvertisedDurationWithANewHoldersRecord() {
        api.leases.put("work-shard-0", lease("work-shard-0", "u-ghost", "\"holderIdentity\":\"ghost\",\"leaseDurationSeconds\":7,\"leaseTransitions\":2"));
        ShardCoordinator b = replica("b", 2);
        b.step();
        assertEquals(List.of(1), b.owned(), "the ghost's shard is not taken at first sight");
        advance(Duration.ofSeconds(7).minusNanos(1));
        b.step();
        assertEquals(List.of(1), b.owned(), "a nanosecond before the ghost's 7 s");
        advance(Duration.ofNanos(1));
        b.step();
        assertEquals(List.of(0, 1), b.owned(), "unchanged for its 7 s (not b's 15): taken");
        JsonObject spec = api.leases.get("work-shard-0").getAsJsonObject("spec");
        assertEquals("b", spec.get("holderIdentity").getAsString());
        assertEquals(LEASE.toSeconds(), spec.get("leaseDurationSeconds").getAsLong());
        assertEquals(3, spec.get("leaseTransitions").getAsLong());
        assertEquals(spec.get("acquireTime").getAsString(), spec.get("renewTime").getAsString());
        assertEquals(List.of("b+1", "b+0"), events);
        assertEquals(2, counted.get("b+"));
        assertTrue(log.lines().contains("INFO Acquired shard 0 (work-shard-0), expired from 'ghost'"), log.lines().toString());
        assertTrue(log.lines().contains("INFO Acquired shard 1 (work-shard-1)"), "a free shard's record names no previous holder: " + log.lines());
    }

    /**
     * An API server that stops answering: the replica keeps its shards until their renew deadline,
     * then gives them up; it is connected for one lease duration after the last answer; when the
     * server answers again it takes them back.
     */
    @Test
    void throughAnOutageShardsAreKeptUntilTheRenewDeadlineAndTakenBackAfter() {
        ShardCoordinator a = replica("a", 2);
        assertFalse(a.connected(), "no answer yet");
        a.step();
        assertEquals(List.of(0, 1), a.owned());
        assertTrue(a.connected());
        api.unavailable = true;
        advance(RENEW.minusNanos(1));
        a.step(); // the list fails: the round is skipped, nothing is lost yet
        assertEquals(List.of(0, 1), a.owned(), "within the renew deadline");
        advance(Duration.ofNanos(1));
        a.step();
        assertEquals(List.of(), a.owned(), "past the renew deadline its shards are given up");
        assertEquals(2, counted.get("a!"));
        assertTrue(a.connected(), "answered less than a lease duration ago");
        advance(LEASE.minus(RENEW));
        assertFalse(a.connected(), "a lease duration without an answer");
        api.unavailable = false;
        a.step();
        assertTrue(a.connected());
        assertEquals(1, log.lines().stream().filter(m -> m.startsWith("WARNING Shard Lease request ops/work-* failed: ")).count(),
                "the outage's first failure is one warning: " + log.lines());
        assertTrue(log.lines().contains("INFO Shard Leases ops/work-* answered again after 2 failures"), log.lines().toString());
        assertFalse(log.lines().stream().anyMatch(m -> m.contains("answered again after 0")), "only after failures: " + log.lines());
        advance(LEASE);
        a.step();
        a.step();
        assertEquals(List.of(0, 1), a.owned(), "answered again: its own Leases, unchanged for their duration, taken back");
    }

    @Test
    void aStoppedReplicaFreesItsShardsAndLeavesTheGroup() throws Exception {
        ShardCoordinator a = replica("a", 3);
        Thread loop = new Thread(a::run);
        loop.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (a.owned().size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(3, a.owned().size());
        a.stop(Duration.ofSeconds(10));
        loop.join(10_000);
        assertEquals(List.of(), a.owned());
        assertTrue(events.containsAll(List.of("a-0", "a-1", "a-2")), "the listener hears every shard go: " + events);
        assertEquals("", api.holder("work-shard-0"));
        assertEquals(3, api.leases.size(), "the member Lease is deleted, the shard Leases stay free: " + api.leases.keySet());
        ShardCoordinator b = replica("b", 3);
        b.step();
        assertEquals(List.of(0, 1, 2), b.owned(), "a successor takes them at once, without waiting for expiry");
    }

    @Test
    void aLeaseOfTheWrongShapeSkipsTheRoundAndTheLoopGoesOn() {
        ShardCoordinator a = replica("a", 2);
        a.step();
        assertEquals(List.of(0, 1), a.owned());
        api.leases.get("work-shard-1").getAsJsonObject("spec").addProperty("leaseDurationSeconds", "forever");
        api.leases.get("work-shard-1").getAsJsonObject("spec").add("holderIdentity", new JsonObject());
        for (int i = 0; i < 6; i++) {
            advance(RETRY);
            a.step(); // no exception: a coordinator that threw would fail the replica's runtime
        }
        assertEquals(List.of(0), a.owned(), "shard 1, whose Lease it cannot read, is given up");
        ObjectKey key = keyOfShard(new ShardMap(2), 1);
        assertFalse(a.writesAllowed(key));
        api.leases.get("work-shard-1").getAsJsonObject("spec").addProperty("leaseDurationSeconds", 15);
        api.leases.get("work-shard-1").getAsJsonObject("spec").addProperty("holderIdentity", "a");
        advance(RETRY);
        a.step();
        a.step();
        assertEquals(List.of(0, 1), a.owned(), "readable again: taken back");
    }

    @Test
    void everyShapeALeaseCannotBeReadAsIsNamedOnceAndItsShardGivenUp() {
        Map<String, java.util.function.Consumer<JsonObject>> shapes = new java.util.LinkedHashMap<>();
        shapes.put("metadata.uid is not a string", lease -> lease.getAsJsonObject("metadata").addProperty("uid", 5));
        shapes.put("metadata.resourceVersion is not a string", lease -> lease.getAsJsonObject("metadata").add("resourceVersion", new JsonObject()));
        shapes.put("spec is not an object", lease -> lease.addProperty("spec", "x"));
        shapes.put("spec.holderIdentity is not a string", lease -> lease.getAsJsonObject("spec").addProperty("holderIdentity", 7));
        shapes.put("spec.leaseDurationSeconds is not a number", lease -> lease.getAsJsonObject("spec").addProperty("leaseDurationSeconds", "x"));
        shapes.put("spec.leaseTransitions is not a number", lease -> lease.getAsJsonObject("spec").addProperty("leaseTransitions", true));
        int replicas = 0;
        for (Map.Entry<String, java.util.function.Consumer<JsonObject>> shape : shapes.entrySet()) {
            api.leases.clear();
            events.clear();
            log.records.clear();
            String identity = "r" + replicas++;
            ShardCoordinator a = replica(identity, 2);
            a.step();
            assertEquals(List.of(0, 1), a.owned());
            shape.getValue().accept(api.leases.get("work-shard-1"));
            advance(RETRY);
            a.step();
            a.step();
            assertEquals(List.of(0), a.owned(), shape.getKey() + ": the shard is given up");
            assertEquals(List.of(identity + "+0", identity + "+1", identity + "-1"), events, shape.getKey() + ": the listener hears it go");
            assertEquals(List.of("WARNING Lease ops/work-shard-1 is ignored: " + shape.getKey()),
                    log.lines().stream().filter(m -> m.contains(" is ignored: ")).toList(), "named once, not every round");
        }
    }

    @Test
    void otherLeasesInTheNamespaceAreNeitherMembersNorShards() {
        api.leases.put("mooring", lease("mooring", "u-x", "\"holderIdentity\":\"someone\",\"leaseDurationSeconds\":15"));
        ShardCoordinator a = replica("a", 2);
        a.step();
        a.step();
        assertEquals(List.of("a"), a.members(), "another Lease's holder is no member");
        assertEquals(List.of(0, 1), a.owned());
        assertEquals("someone", api.holder("mooring"), "and its Lease is left alone");
    }

    @Test
    void aReplicaShortOfItsShareTakesOnlyWhatItLacks() {
        ShardCoordinator a = replica("a", 6);
        ShardCoordinator b = replica("b", 6);
        ShardCoordinator c = replica("c", 6);
        for (int i = 0; i < 4; i++) {
            for (ShardCoordinator replica : List.of(a, b, c)) {
                replica.step();
            }
            advance(RETRY);
        }
        assertEquals(List.of(2, 2, 2), List.of(a.owned().size(), b.owned().size(), c.owned().size()));
        api.leases.remove(new ShardSettings(new ElectionSettings("work", "ops", "c", LEASE, RENEW, RETRY), 6).memberLease());
        for (String name : List.copyOf(api.leases.keySet())) {
            if ("c".equals(api.holder(name))) {
                api.leases.get(name).getAsJsonObject("spec").addProperty("holderIdentity", ""); // c left, its shards freed
            }
        }
        a.step();
        assertEquals(3, a.owned().size(), "a share of 3 of 6 with b: one more, not every free shard");
        b.step();
        assertEquals(3, b.owned().size());
    }

    @Test
    void aShardWhoseLeaseSomeoneElseWroteIsLostAtOnce() {
        ShardCoordinator a = replica("a", 2);
        a.step();
        api.leases.get("work-shard-1").getAsJsonObject("spec").addProperty("holderIdentity", "intruder");
        advance(RETRY);
        a.step();
        assertEquals(List.of(0), a.owned());
        assertFalse(a.writesAllowed(keyOfShard(new ShardMap(2), 1)));
        assertTrue(log.lines().contains("WARNING Lost shard 1: its Lease work-shard-1 is held by 'intruder'"), log.lines().toString());
        ShardGuard guard = ShardGuard.of(a); // what the controllers' workers ask
        ObjectKey lost = keyOfShard(new ShardMap(2), 1);
        ObjectKey kept = keyOfShard(new ShardMap(2), 0);
        assertFalse(guard.takes(lost));
        assertTrue(guard.takes(kept));
        try (ShardGuard.Passing passing = guard.passing(lost)) {
            assertFalse(guard.writesAllowed(), "a pass of the lost shard's key writes nothing");
        }
        try (ShardGuard.Passing passing = guard.passing(kept)) {
            assertTrue(guard.writesAllowed());
        }
        api.leases.remove("work-shard-0");
        advance(RETRY);
        a.step();
        assertTrue(log.lines().contains("WARNING Lost shard 0: its Lease work-shard-0 was deleted"), log.lines().toString());
        assertEquals(List.of("a+0", "a+1", "a-1", "a-0"), events.subList(0, 4));
    }

    @Test
    void writesThatFailPastTheRenewDeadlineGiveTheShardsUpThoughListsAnswer() {
        ShardCoordinator a = replica("a", 2);
        a.step();
        api.failWrites = true;
        advance(RENEW.minusNanos(1));
        a.step();
        assertEquals(List.of(0, 1), a.owned(), "within the renew deadline");
        advance(Duration.ofNanos(1));
        a.step();
        assertEquals(List.of(), a.owned(), "renewals refused until the deadline: given up");
        assertTrue(log.lines().stream().anyMatch(m -> m.startsWith("WARNING Lost shard 0: its Lease was not renewed within the renew deadline")),
                log.lines().toString());
    }

    @Test
    void aRefusedListIsFatalAndAConflictIsNot() {
        ShardCoordinator a = replica("a", 2);
        a.step();
        api.failWith = 403;
        advance(RETRY);
        dev.mooring.api.client.KubernetesException refused = org.junit.jupiter.api.Assertions.assertThrows(
                dev.mooring.api.client.KubernetesException.class, a::step);
        assertEquals(403, refused.code());
        api.failWith = 409;
        advance(RETRY);
        a.step(); // counted and retried, not thrown
        assertEquals(List.of(0, 1), a.owned(), "within the renew deadline");
    }

    /**
     * A refusal that retrying cannot cure ends the loop whichever write of the round meets it:
     * announcing this member, renewing a shard held, taking a free one.
     */
    @Test
    void aForbiddenWriteIsFatalWhereverTheRoundMakesIt() {
        ShardCoordinator a = replica("a", 2);
        api.refuse = (method, name) -> name.contains("-member-") ? 403 : 0;
        assertEquals(403, org.junit.jupiter.api.Assertions.assertThrows(KubernetesException.class, a::step).code(), "announcing");
        api.refuse = (method, name) -> 0;
        advance(RETRY);
        a.step();
        assertEquals(List.of(0, 1), a.owned());
        api.refuse = (method, name) -> name.contains("-shard-") ? 403 : 0;
        advance(RETRY);
        assertEquals(403, org.junit.jupiter.api.Assertions.assertThrows(KubernetesException.class, a::step).code(), "renewing");

        ShardCoordinator b = replica("b", 2);
        api.leases.clear();
        api.refuse = (method, name) -> method.equals("POST") && name.contains("-shard-") ? 403 : 0;
        assertEquals(403, org.junit.jupiter.api.Assertions.assertThrows(KubernetesException.class, b::step).code(), "taking");
    }

    /** Losing a shard to a faster replica is the normal course of a race: no warning, and the shard is taken later if still free. */
    @Test
    void aLostRaceForAShardIsNeitherAFailureNorAWarning() {
        ShardCoordinator a = replica("a", 2);
        api.refuse = (method, name) -> method.equals("POST") && name.contains("-shard-") ? 409 : 0;
        a.step();
        assertEquals(List.of(), a.owned());
        api.refuse = (method, name) -> 0;
        advance(RETRY);
        a.step();
        assertEquals(List.of(0, 1), a.owned());
        assertEquals(List.of(), log.lines().stream().filter(m -> !m.startsWith("INFO Acquired shard")).toList(), "nothing but the acquisitions");
    }

    /**
     * A write still unanswered when the round stops waiting (twice the request timeout, the retry
     * period, and a second: 5 s here) is a failed one: its shard is not taken. The API server here holds the write that
     * the round's second sender took until the round is over.
     */
    @Test
    void aWriteUnansweredWithinTheRoundIsAFailedOne() throws Exception {
        Thread round = Thread.currentThread();
        java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch over = new java.util.concurrent.CountDownLatch(1);
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
            if (Thread.currentThread() != round) {
                holding.countDown();
                try {
                    over.await(30, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return api.answer(chain.request());
        }).build());
        List<Thread> senders = new ArrayList<>();
        java.util.concurrent.Executor second = task -> { // returns once the second sender holds a write
            Thread sender = new Thread(task);
            senders.add(sender);
            sender.start();
            try {
                holding.await(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        ShardCoordinator a = new ShardCoordinator(new KubeHttp(client), new ShardSettings(new ElectionSettings("work", "ops", "a", LEASE,
                RENEW, RETRY), 2), second, now::get);
        try {
            a.step();
            assertEquals(1, a.owned().size(), "the write answered in time: " + a.owned());
            assertTrue(log.lines().stream().anyMatch(m -> m.startsWith("WARNING Shard Lease request") && m.contains("no answer within the round")),
                    log.lines().toString());
        } finally {
            over.countDown();
            for (Thread sender : senders) {
                sender.join(30_000);
            }
        }
    }

    /** A replica of 16 shards whose API server calls {@code latency} with the name of each shard Lease written, before answering. */
    private ShardCoordinator slowReplica(java.util.function.Consumer<String> latency, java.util.concurrent.Executor writes) {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
            if (chain.request().body() != null) {
                okio.Buffer body = new okio.Buffer();
                chain.request().body().writeTo(body);
                String name = JsonParser.parseString(body.readUtf8()).getAsJsonObject().getAsJsonObject("metadata").get("name").getAsString();
                if (name.contains("-shard-")) {
                    latency.accept(name);
                }
            }
            return api.answer(chain.request());
        }).build());
        return new ShardCoordinator(new KubeHttp(client), new ShardSettings(new ElectionSettings("work", "ops", "slow", LEASE, RENEW,
                RETRY), 16), writes, now::get);
    }

    /**
     * On a slow API server a round must not take one answer's time per shard: it writes up to
     * {@link ShardCoordinator#PARALLEL_WRITES} Leases at once. Each shard write here waits (at most
     * 10 s) until eight are in flight together; one after another, a write would be alone.
     */
    @Test
    void aRoundWritesUpToEightLeasesAtOnce() throws Exception {
        java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch eightTogether = new java.util.concurrent.CountDownLatch(ShardCoordinator.PARALLEL_WRITES);
        java.util.concurrent.ExecutorService writers = java.util.concurrent.Executors.newCachedThreadPool();
        try {
            ShardCoordinator slow = slowReplica(shard -> {
                most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                eightTogether.countDown();
                try {
                    eightTogether.await(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                inFlight.decrementAndGet();
            }, writers);
            slow.step();
            assertEquals(16, slow.owned().size());
            assertEquals(ShardCoordinator.PARALLEL_WRITES, most.get(), "the most shard writes in flight at once");
        } finally {
            writers.shutdownNow();
        }
    }

    /**
     * A shard is fresh for the renew deadline counted from when its own write was sent: neither
     * from the round's start (on a slow API server the round's last shards would look stale at
     * once) nor from the answer (later than what the Lease says). Every shard write here takes
     * 100 ms of the coordinator's clock.
     */
    @Test
    void aShardIsFreshForTheRenewDeadlineFromWhenItsOwnWriteWasSent() {
        Map<String, Long> sent = new java.util.concurrent.ConcurrentHashMap<>();
        ShardCoordinator slow = slowReplica(shard -> {
            sent.put(shard, now.get());
            advance(Duration.ofMillis(100));
        }, Runnable::run);
        slow.step();
        assertEquals(16, slow.owned().size());
        ObjectKey last = keyOfShard(new ShardMap(16), 15);
        long lastSent = sent.get("work-shard-15");
        assertTrue(lastSent - sent.get("work-shard-0") >= Duration.ofMillis(1500).toNanos(), "one write after another: " + sent);
        now.set(lastSent + RENEW.toNanos() - 1);
        assertTrue(slow.writesAllowed(last), "fresh until the renew deadline from its send");
        assertFalse(slow.writesAllowed(keyOfShard(new ShardMap(16), 0)), "the first shard's deadline, 1.5 s earlier, has passed");
        now.set(lastSent + RENEW.toNanos());
        assertFalse(slow.writesAllowed(last), "not a moment longer");
    }

    @Test
    void sharesDifferByAtMostOneAndEveryReplicaStartsFromItsOwnStretch() {
        List<String> members = List.of("a", "b", "c");
        assertEquals(List.of(3, 3, 2), members.stream().map(m -> FairShare.of(members, m, 8)).toList());
        assertEquals(List.of(0, 2, 5), members.stream().map(m -> FairShare.firstChoice(members, m, 8)).toList());
    }

    @Test
    void keysSpreadOverTheShardsAndAKeyAlwaysMapsToTheSameOne() {
        ShardMap map = new ShardMap(4);
        int[] counts = new int[4];
        for (int i = 0; i < 4000; i++) {
            counts[map.shardOf(new ObjectKey("ns-" + i % 7, "object-" + i))]++;
        }
        for (int count : counts) {
            assertTrue(count > 850 && count < 1150, java.util.Arrays.toString(counts));
        }
        // pinned: the function is part of the contract between replicas of different versions
        assertEquals(new ShardMap(16).shardOf(new ObjectKey("default", "a")), new ShardMap(16).shardOf(new ObjectKey("default", "a")));
        assertEquals(fnv1a("default/a") % 16, new ShardMap(16).shardOf(new ObjectKey("default", "a")));
        assertEquals(fnv1a("/node-1") % 5, new ShardMap(5).shardOf(new ObjectKey(null, "node-1")));
        assertEquals(0, new ShardMap(1).shardOf(new ObjectKey("default", "a")), "one shard holds every key");
        assertEquals("The number of shards must be at least 1, got 0", org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> new ShardMap(0)).getMessage());
    }

    /** FNV-1a 32 as published (offset basis 2166136261, prime 16777619), unsigned. */
    private static long fnv1a(String text) {
        long hash = 2166136261L;
        for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            hash = ((hash ^ (b & 0xff)) * 16777619L) & 0xffffffffL;
        }
        return hash;
    }

    private static ObjectKey keyOfShard(ShardMap map, int shard) {
        for (int i = 0;; i++) {
            ObjectKey key = new ObjectKey("default", "k" + i);
            if (map.shardOf(key) == shard) {
                return key;
            }
        }
    }

    /** Leases as the API server keeps them: a resourceVersion per write, 409 on a stale one or a second create. */
}
