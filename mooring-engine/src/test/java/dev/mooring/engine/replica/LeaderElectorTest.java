package dev.mooring.engine.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.LogCapture;
import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

/**
 * The elector's decisions, one attempt at a time, on a fake clock, over an API client whose
 * answers come from an interceptor: a scripted Lease (what the API server decides about it is
 * left to ElectionIT on the real one).
 */
class LeaderElectorTest {

    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofSeconds(2);
    private static final String PATH = "/apis/coordination.k8s.io/v1/namespaces/ops/leases/election";

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final ScriptedLease api = new ScriptedLease();
    @org.junit.jupiter.api.extension.RegisterExtension
    private final LogCapture log = new LogCapture(LeaderElector.class);
    private final List<LogRecord> logged = log.records;


    private LeaderElector elector(String identity) {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
            api.timeouts.add(Duration.ofNanos(chain.call().timeout().timeoutNanos()));
            return api.answer(chain.request());
        }).build());
        return new LeaderElector(new KubeHttp(client), new ElectionSettings("election", "ops", identity, LEASE, RENEW, RETRY),
                now::get);
    }

    private void advance(Duration by) {
        now.addAndGet(by.toNanos());
    }

    @Test
    void withoutALeaseTheFirstAttemptCreatesOneHeldByThisReplica() {
        LeaderElector a = elector("a");
        assertFalse(a.connected(), "no contact before the first answer");
        assertTrue(a.attempt());
        assertEquals("a", api.holder());
        assertEquals(List.of("GET", "POST"), api.methods);
        assertTrue(a.connected());
        assertTrue(a.attempt());
        assertEquals(List.of(), logged.stream().filter(record -> record.getLevel() != Level.FINE && record.getLevel() != Level.FINER
                && record.getLevel() != Level.FINEST).toList().stream().map(record -> record.getMessage()).toList(),
                "attempts without a failure say nothing");
    }

    @Test
    void aHeldLeaseWithoutAPositiveDurationIsRefused() {
        api.store("b", 0, 0);
        assertEquals("Held Lease has an invalid leaseDurationSeconds",
                assertThrows(IllegalStateException.class, () -> elector("a").attempt()).getMessage());
    }

    @Test
    void theFirstLeaseAdvertisesTheDurationAndNoTransition() {
        LeaderElector a = elector("a");
        assertTrue(a.attempt());
        JsonObject spec = api.lease.getAsJsonObject("spec");
        assertEquals(LEASE.toSeconds(), spec.get("leaseDurationSeconds").getAsLong());
        assertEquals(0, api.transitions(), "the first holder is no transition");
        assertTrue(spec.has("acquireTime") && spec.has("renewTime"), spec.toString());

        api.lease = null; // deleted before this replica leads (it has not run): made again, as at a first start
        api.methods.clear();
        assertTrue(a.attempt());
        assertEquals(List.of("GET", "POST"), api.methods);
        assertEquals("a", api.holder());
    }

    @Test
    void aLeaderWhoseLeaseIsDeletedLosesLeadership() throws Exception {
        try (Running a = running("a")) {
            a.awaitAcquired();
            api.lease = null; // deleted by someone while a leads
            LeaderElector.LeadershipLost cause = a.lost.get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals("Leader Lease was deleted", cause.getMessage());
            a.thread.join(10_000);
            assertFalse(a.thread.isAlive(), "the election loop ends");
            assertFalse(a.elector.isLeader());
            assertEquals(null, api.lease, "the lost leader does not make the Lease again");
        }
    }

    /** The Lease it renews is the one it holds: a leader renews round after round and keeps leading. */
    @Test
    void aLeaderRenewingItsOwnLeaseKeepsLeading() throws Exception {
        try (Running a = running("a")) {
            a.awaitAcquired();
            long renewals;
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            do {
                Thread.sleep(10);
                renewals = api.methods.stream().filter("PUT"::equals).count();
            } while (renewals < 3 && System.nanoTime() < end);
            assertEquals(3, Math.min(3, renewals), "renewed three times: " + messages());
            assertFalse(a.lost.isDone(), "still leading: " + messages());
            assertTrue(a.elector.isLeader());
        }
    }

    @Test
    void aLeaderWhoseLeaseIsTakenOrReplacedLosesLeadership() throws Exception {
        try (Running a = running("a")) {
            a.awaitAcquired();
            JsonObject taken = api.lease.deepCopy();
            taken.getAsJsonObject("spec").addProperty("holderIdentity", "b");
            taken.getAsJsonObject("metadata").addProperty("resourceVersion", "99");
            api.lease = taken; // another holder wrote the Lease (swapped whole: the loop reads it meanwhile)
            assertEquals("Leader Lease ownership changed", a.lost.get(10, java.util.concurrent.TimeUnit.SECONDS).getMessage());
            a.thread.join(10_000);
            assertFalse(a.elector.isLeader());
        }
        api.lease = null;
        try (Running a = running("a")) {
            a.awaitAcquired();
            JsonObject replaced = api.lease.deepCopy();
            replaced.getAsJsonObject("metadata").addProperty("uid", "u2");
            api.lease = replaced; // deleted and made again meanwhile, naming this replica: not the Lease it holds
            assertEquals("Leader Lease ownership changed", a.lost.get(10, java.util.concurrent.TimeUnit.SECONDS).getMessage());
        }
    }

    @Test
    void theAcquisitionIsLoggedWithHowTheLeaseWasGot() throws Exception {
        try (Running a = running("a")) {
            a.awaitAcquired();
        }
        assertTrue(messages().contains("INFO Acquired Lease ops/election as a (created it)"), messages());
        api.store("", 15, 1); // released by its holder
        try (Running b = running("b")) {
            b.awaitAcquired();
        }
        assertTrue(messages().contains("INFO Acquired Lease ops/election as b (released by its last holder)"), messages());
        api.store("c", 15, 2); // held by a live-looking holder: taken over only after its duration on this replica's clock
        try (Running d = running("d")) {
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!d.elector.connected() && System.nanoTime() < end) {
                Thread.sleep(5); // until d has read the Lease: its duration counts from that read
            }
            advance(LEASE);
            d.awaitAcquired();
        }
        assertTrue(messages().contains("INFO Acquired Lease ops/election as d (taken over from c, whose record stayed unchanged for 15 s)"),
                messages());
    }

    @Test
    void aGracefulStopReleasesTheLeaseForTheNextCandidatesFirstAttempt() throws Exception {
        try (Running a = running("a")) {
            a.awaitAcquired();
        }
        JsonObject spec = api.lease.getAsJsonObject("spec");
        assertEquals("", spec.get("holderIdentity").getAsString(), "released: " + spec);
        assertEquals(1, spec.get("leaseDurationSeconds").getAsLong(), "released: " + spec);
        assertTrue(messages().contains("INFO Released Lease ops/election"), messages());
        assertTrue(elector("b").attempt(), "the next candidate acquires at its first attempt, on a clock that did not move");
        assertEquals("b", api.holder());
    }

    @Test
    void aStandbysRequestsMayTakeTheRenewDeadlineALeadersOnlyWhatIsLeftOfIt() throws Exception {
        api.store("b", 15, 0);
        LeaderElector a = elector("a");
        assertFalse(a.attempt());
        assertEquals(List.of(RENEW), api.timeouts, "one slow answer is still contact for a standby");

        api.timeouts.clear();
        api.lease = null; // c makes the Lease: no clock jump is needed to acquire it
        try (Running c = running("c")) {
            c.awaitAcquired();
            assertTrue(c.elector.isLeader());
            assertEquals(1, c.elector.acquisitions());
            advance(Duration.ofSeconds(3)); // a renewal in flight keeps the time it began; the next asks for what is left
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (api.timeouts.stream().noneMatch(asked -> asked.compareTo(RENEW.minusSeconds(3)) <= 0) && System.nanoTime() < end) {
                Thread.sleep(5);
            }
            assertTrue(api.timeouts.stream().anyMatch(asked -> asked.compareTo(RENEW.minusSeconds(3)) <= 0
                    && asked.compareTo(Duration.ZERO) > 0), "a leader's request ends by its renew deadline: " + api.timeouts);
            assertEquals(0, c.elector.renewalFailures());
        }
    }

    @Test
    void aLeaderWhoseRenewalsFailUntilItsDeadlineLosesTheLeaseAndCountsThem() throws Exception {
        List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Running a = running("a", new LeaderElector.Observer() {
            @Override
            public void acquired() {
                told.add("acquired");
            }

            @Override
            public void renewalFailed() {
                told.add("renewal failed");
            }
        })) {
            a.awaitAcquired();
            assertTrue(a.elector.electing());
            api.failWith(503);
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (a.elector.renewalFailures() == 0 && System.nanoTime() < end) {
                Thread.sleep(5);
            }
            assertTrue(a.elector.isLeader(), "a failed renewal within the deadline keeps the lead");
            advance(RENEW);
            assertFalse(a.elector.isLeader(), "at the renew deadline this replica no longer leads");
            assertEquals("Lease renewal deadline exceeded", a.lost.get(10, java.util.concurrent.TimeUnit.SECONDS).getMessage());
            assertTrue(a.elector.renewalFailures() >= 1);
            assertEquals("acquired", told.get(0));
            assertTrue(told.contains("renewal failed"), told.toString());
            api.failWith(0);
        }
    }

    @Test
    void aRenewalWritesANewRenewTime() throws Exception {
        LeaderElector a = elector("a");
        assertTrue(a.attempt());
        assertTrue(a.attempt());
        String first = api.lease.getAsJsonObject("spec").get("renewTime").getAsString();
        Thread.sleep(2); // the renew time is the wall clock's, in microseconds
        assertTrue(a.attempt());
        assertTrue(!first.equals(api.lease.getAsJsonObject("spec").get("renewTime").getAsString()), "renewed: " + api.lease);
        assertEquals(List.of("GET", "POST", "GET", "PUT", "GET", "PUT"), api.methods);
    }

    /** An election loop on a thread of its own, trying every 100 ms of real time; stopped on close. */
    private Running running(String identity) {
        return running(identity, new LeaderElector.Observer() {
        });
    }

    /** As {@link #running(String)}, with {@code observer} set before the loop starts. */
    private Running running(String identity, LeaderElector.Observer observer) {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
            api.timeouts.add(Duration.ofNanos(chain.call().timeout().timeoutNanos()));
            return api.answer(chain.request());
        }).build());
        LeaderElector elector = new LeaderElector(new KubeHttp(client),
                new ElectionSettings("election", "ops", identity, LEASE, RENEW, Duration.ofMillis(100)), now::get);
        elector.observe(observer);
        return new Running(elector);
    }

    private final class Running implements AutoCloseable {
        final LeaderElector elector;
        final java.util.concurrent.CountDownLatch acquired = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CompletableFuture<LeaderElector.LeadershipLost> lost = new java.util.concurrent.CompletableFuture<>();
        final Thread thread;

        Running(LeaderElector elector) {
            this.elector = elector;
            thread = new Thread(() -> elector.run(new LeaderElector.Leadership() {
                @Override
                public void acquired() {
                    acquired.countDown();
                }

                @Override
                public void lost(LeaderElector.LeadershipLost cause) {
                    lost.complete(cause);
                }
            }));
            thread.start();
        }

        void awaitAcquired() throws InterruptedException {
            assertTrue(acquired.await(10, java.util.concurrent.TimeUnit.SECONDS), "not acquired: " + messages());
        }

        @Override
        public void close() throws InterruptedException {
            elector.stop(Duration.ofSeconds(5));
            thread.join(10_000);
        }
    }

    @Test
    void aHeldLeaseIsTakenOverOnlyAfterItsRecordStayedUnchangedForItsDuration() {
        api.store("b", 15, 3);
        LeaderElector a = elector("a");
        assertFalse(a.attempt(), "a live holder's Lease is not taken");
        advance(LEASE.minusSeconds(1));
        assertFalse(a.attempt(), "not before the advertised duration has passed on this replica's clock");
        api.renewedBy("b"); // the holder renews: the record changes, the wait starts again
        advance(Duration.ofSeconds(2));
        assertFalse(a.attempt());
        advance(LEASE);
        assertTrue(a.attempt(), "an unchanged record for the lease duration: the holder is gone");
        assertEquals("a", api.holder());
        assertEquals(4, api.transitions(), "a takeover counts a transition");
    }

    @Test
    void theTakeoverComesExactlyAtTheLeaseDurationAndWritesANewHoldersRecord() {
        api.store("b", 15, 3);
        LeaderElector a = elector("a");
        assertFalse(a.attempt());
        advance(LEASE.minusNanos(1));
        assertFalse(a.attempt(), "a nanosecond before the advertised duration: still b's");
        advance(Duration.ofNanos(1));
        assertTrue(a.attempt(), "at the duration: taken over");
        JsonObject spec = api.lease.getAsJsonObject("spec");
        assertEquals("a", spec.get("holderIdentity").getAsString());
        assertEquals(LEASE.toSeconds(), spec.get("leaseDurationSeconds").getAsLong(), "this replica's duration, not b's");
        assertEquals(spec.get("acquireTime").getAsString(), spec.get("renewTime").getAsString(), "acquired when renewed");
        assertEquals(4, api.transitions());
        String acquired = spec.get("acquireTime").getAsString();
        advance(RETRY);
        assertTrue(a.attempt(), "its own renewal");
        JsonObject renewed = api.lease.getAsJsonObject("spec");
        assertEquals(acquired, renewed.get("acquireTime").getAsString(), "a renewal keeps the acquire time");
        assertEquals(4, api.transitions(), "and counts no transition");
    }

    @Test
    void contactLastsALeaseDurationAndALeaderAtItsRenewDeadlineHasLostTheLease() {
        LeaderElector a = elector("a");
        assertTrue(a.attempt());
        advance(LEASE.minusNanos(1));
        assertTrue(a.connected(), "answered within the lease duration");
        advance(Duration.ofNanos(1));
        assertFalse(a.connected(), "a lease duration without an answer: not connected");
    }

    @Test
    void aStandbyTriesAgainTheMomentAHeldLeaseWouldExpireNotARetryPeriodLater() {
        api.store("b", 15, 0);
        LeaderElector a = elector("a");
        assertTrue(a.untilNextAttempt().compareTo(RETRY.multipliedBy(9).dividedBy(10)) >= 0, "no Lease observed: the retry period");
        assertFalse(a.attempt());
        assertTrue(a.untilNextAttempt().compareTo(RETRY.multipliedBy(9).dividedBy(10)) >= 0, "far from expiry: the retry period");
        advance(LEASE.minusMillis(500));
        assertFalse(a.attempt());
        assertEquals(Duration.ofMillis(500), a.untilNextAttempt(), "the rest of the duration");
        advance(Duration.ofMillis(500));
        assertEquals(Duration.ZERO, a.untilNextAttempt());
        assertTrue(a.attempt(), "taken at expiry");
        api.renewedBy("c");
        assertTrue(a.untilNextAttempt().compareTo(RETRY.multipliedBy(9).dividedBy(10)) >= 0, "a holder's own retry after acquiring");
    }

    @Test
    void aStandbyIsInContactWhileAnswersComeAndLosesItAfterALeaseDurationWithout() {
        api.store("b", 15, 0);
        LeaderElector a = elector("a");
        a.attempt();
        assertTrue(a.connected());
        api.failWith(500);
        advance(LEASE.minusSeconds(1));
        assertFalse(a.attempt());
        assertTrue(a.connected(), "within a lease duration of the last answer");
        advance(Duration.ofSeconds(2));
        assertFalse(a.attempt());
        assertFalse(a.connected(), "no answer for a lease duration");
    }

    @Test
    void aRunOfFailedRequestsIsOneWarningAndTheRecoveryIsSaid() {
        api.store("b", 15, 0);
        LeaderElector a = elector("a");
        api.failWith(503);
        for (int i = 0; i < 4; i++) {
            assertFalse(a.attempt());
            advance(RETRY);
        }
        assertEquals(1, logged.stream().filter(record -> record.getLevel() == Level.WARNING).count(), messages());
        assertEquals(3, logged.stream().filter(record -> record.getLevel() == Level.FINE).count(), messages());
        api.failWith(0);
        a.attempt();
        assertTrue(logged.stream().anyMatch(record -> record.getLevel() == Level.INFO
                && record.getMessage().contains("answered again after 4 failures")), messages());
    }

    @Test
    void aForbiddenRequestIsFatalAtOnce() {
        api.failWith(403);
        KubernetesException refused = assertThrows(KubernetesException.class, () -> elector("a").attempt());
        assertEquals(403, refused.code());
    }

    @Test
    void aConflictIsNotFatal() {
        api.store("b", 15, 0);
        LeaderElector a = elector("a");
        a.attempt();
        advance(LEASE.plusSeconds(1));
        api.conflictOnWrite = true;
        assertFalse(a.attempt(), "someone else wrote first");
        assertEquals("b", api.holder());
    }

    private String messages() {
        return logged.stream().map(record -> record.getLevel() + " " + record.getMessage()).toList().toString();
    }

    /** One Lease as the API server would keep it, with a resourceVersion per write; or scripted failures. */
    private static final class ScriptedLease {
        /** The methods asked, in order (the election loop's thread writes while a test reads). */
        final List<String> methods = new java.util.concurrent.CopyOnWriteArrayList<>();
        /** Each request's call timeout, in order. */
        final List<Duration> timeouts = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile JsonObject lease;
        int version;
        int failure;
        boolean conflictOnWrite;

        void store(String holder, int seconds, int transitions) {
            lease = JsonParser.parseString("{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":"
                    + "\"election\",\"namespace\":\"ops\",\"uid\":\"u1\"},\"spec\":{\"holderIdentity\":\"" + holder + "\","
                    + "\"leaseDurationSeconds\":" + seconds + ",\"renewTime\":\"2026-12-01T00:00:00.000000Z\",\"leaseTransitions\":"
                    + transitions + "}}").getAsJsonObject();
            bump();
        }

        void renewedBy(String holder) {
            lease.getAsJsonObject("spec").addProperty("holderIdentity", holder);
            lease.getAsJsonObject("spec").addProperty("renewTime", "2026-12-01T00:00:0" + version + ".000000Z");
            bump();
        }

        void failWith(int code) {
            failure = code;
        }

        String holder() {
            return lease.getAsJsonObject("spec").get("holderIdentity").getAsString();
        }

        long transitions() {
            return lease.getAsJsonObject("spec").get("leaseTransitions").getAsLong();
        }

        private void bump() {
            version++;
            lease.getAsJsonObject("metadata").addProperty("resourceVersion", Integer.toString(version));
        }

        Response answer(Request request) throws java.io.IOException {
            methods.add(request.method());
            if (failure != 0) {
                return respond(request, failure, "{\"kind\":\"Status\",\"code\":" + failure + ",\"message\":\"scripted\"}");
            }
            String path = request.url().encodedPath();
            if (request.method().equals("GET") && path.equals(PATH)) {
                return lease == null ? respond(request, 404, "{\"kind\":\"Status\",\"code\":404,\"reason\":\"NotFound\"}")
                        : respond(request, 200, lease.toString());
            }
            okio.Buffer buffer = new okio.Buffer();
            request.body().writeTo(buffer);
            JsonObject written = JsonParser.parseString(buffer.readUtf8()).getAsJsonObject();
            if (conflictOnWrite) {
                return respond(request, 409, "{\"kind\":\"Status\",\"code\":409,\"reason\":\"Conflict\"}");
            }
            if (request.method().equals("POST")) {
                written.getAsJsonObject("metadata").addProperty("uid", "u1");
            }
            lease = written;
            bump();
            return respond(request, request.method().equals("POST") ? 201 : 200, lease.toString());
        }

        private static Response respond(Request request, int code, String body) {
            return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(code).message("scripted")
                    .body(ResponseBody.create(body, MediaType.get("application/json"))).build();
        }
    }
}
