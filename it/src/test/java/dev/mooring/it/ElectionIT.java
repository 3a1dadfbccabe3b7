package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.replica.ElectionSettings;
import dev.mooring.engine.replica.LeaderElector;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.util.Config;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Lease-based leader elector against the real API server, two contenders in one JVM. */
class ElectionIT {

    private final ExecutorService threads = Executors.newCachedThreadPool();
    /** Leadership intervals: [identity, start nanos, end nanos] (end 0 while leading). */
    private final List<long[]> terms = new CopyOnWriteArrayList<>();
    private final List<String> log = new CopyOnWriteArrayList<>();

    @AfterEach
    void shutdown() {
        threads.shutdownNow();
    }

    private LeaderElector elector(ApiClient client, String namespace, String identity, Duration lease, Duration renew,
            Duration retry) {
        return new LeaderElector(new KubeHttp(client), new ElectionSettings("election", namespace, identity, lease, renew, retry));
    }

    private Future<?> run(LeaderElector elector, int id) {
        return threads.submit(() -> elector.run(new LeaderElector.Leadership() {
            @Override
            public void acquired() {
                terms.add(new long[] {id, System.nanoTime(), 0});
                log.add(id + " acquired");
            }

            @Override
            public void lost(LeaderElector.LeadershipLost cause) {
                end(id);
                log.add(id + " lost: " + cause.getMessage());
            }
        }));
    }

    private void end(int id) {
        for (long[] term : terms) {
            if (term[0] == id && term[2] == 0) {
                term[2] = System.nanoTime();
            }
        }
    }

    private void assertNoOverlap() {
        for (long[] a : terms) {
            for (long[] b : terms) {
                if (a != b && a[2] != 0 && b[2] != 0) {
                    assertTrue(a[2] <= b[1] || b[2] <= a[1], "two leaders at once: " + log);
                }
            }
        }
    }

    @Test
    void oneLeadsAndAGracefulStopHandsOver() throws Exception {
        String namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "election");
        LeaderElector a = elector(Testbed.client(), namespace, "a", Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(1));
        LeaderElector b = elector(Testbed.client(), namespace, "b", Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(1));
        java.util.concurrent.atomic.AtomicInteger told = new java.util.concurrent.atomic.AtomicInteger();
        a.observe(new LeaderElector.Observer() {
            @Override
            public void acquired() {
                told.incrementAndGet();
            }
        });
        run(a, 1);
        Eventually.await("a leads", Duration.ofSeconds(20), a::isLeader);
        assertEquals(1, told.get(), "the observer hears the acquisition (the metrics' counter)");
        run(b, 2);
        Thread.sleep(3000);
        assertFalse(b.isLeader(), "a standby took the Lease of a live leader");

        try (LogRecords records = new LogRecords(LeaderElector.class)) {
            end(1);
            a.stop(Duration.ofSeconds(10)); // releases: the successor need not wait for the lease duration
            Eventually.await("b leads", Duration.ofSeconds(60), b::isLeader);
            assertEquals(1, records.containing("Acquired Lease " + namespace + "/election as b (released by its last holder)").size(),
                    "b acquired the Lease a released, not an expired one: " + records.messages());
        }
        end(2);
        b.stop(Duration.ofSeconds(10));
        assertNoOverlap();
        assertEquals(1, a.acquisitions());
        assertEquals(1, b.acquisitions());
    }

    /** A leader that can no longer reach the server (as if its process hung or died) loses; the standby takes over after expiry. */
    @Test
    void aSilentLeaderLosesAtItsDeadlineAndIsReplacedAfterTheLeaseDuration() throws Exception {
        String namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "election");
        try (FreezingProxy proxy = new FreezingProxy(Integer.parseInt(Testbed.env().getProperty("TESTBED_PORT")))) {
            ApiClient frozenLater = Config.fromConfig(Testbed.runDir().resolve("admin.kubeconfig").toString())
                    .setBasePath("https://127.0.0.1:" + proxy.port());
            LeaderElector a = elector(frozenLater, namespace, "a", Duration.ofSeconds(6), Duration.ofSeconds(4), Duration.ofSeconds(1));
            LeaderElector b = elector(Testbed.client(), namespace, "b", Duration.ofSeconds(6), Duration.ofSeconds(4), Duration.ofSeconds(1));
            run(a, 1);
            Eventually.await("a leads", Duration.ofSeconds(20), a::isLeader);
            run(b, 2);
            Thread.sleep(1500);
            proxy.freezeOpenConnections();
            proxy.close(); // and no new connections either
            try (LogRecords records = new LogRecords(LeaderElector.class)) {
                // bounds for liveness only (a busy machine makes both later): what they show is in the log
                Eventually.await("a gives up at its renew deadline", Duration.ofSeconds(60), () -> !a.isLeader());
                Eventually.await("b takes over", Duration.ofSeconds(60), b::isLeader);
                assertEquals(1, records.containing("as b (taken over from a, whose record stayed unchanged for 6 s)").size(),
                        "b took over the Lease once a's record stayed unchanged for its duration: " + records.messages());
            }
            Eventually.await("a reports the loss", Duration.ofSeconds(60), () -> log.stream().anyMatch(line -> line.startsWith("1 lost")));
            b.stop(Duration.ofSeconds(10));
            end(2);
            assertNoOverlap();
        }
    }

    /**
     * A slow API server (every answer 1.5 s late, beyond the retry period, within the renew
     * deadline) keeps a standby in contact, so its readiness does not flap, and says so in one
     * warning at most.
     */
    @Test
    void aStandbyStaysInContactThroughSlowAnswers() throws Exception {
        String namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "election");
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(LeaderElector.class.getName());
        List<java.util.logging.LogRecord> warnings = new CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    warnings.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try (FreezingProxy proxy = new FreezingProxy(Integer.parseInt(Testbed.env().getProperty("TESTBED_PORT")))) {
            ApiClient slow = Config.fromConfig(Testbed.runDir().resolve("admin.kubeconfig").toString())
                    .setBasePath("https://127.0.0.1:" + proxy.port());
            LeaderElector a = elector(Testbed.client(), namespace, "a", Duration.ofSeconds(6), Duration.ofSeconds(4), Duration.ofSeconds(1));
            LeaderElector b = elector(slow, namespace, "b", Duration.ofSeconds(6), Duration.ofSeconds(4), Duration.ofSeconds(1));
            run(a, 1);
            Eventually.await("a leads", Duration.ofSeconds(20), a::isLeader);
            run(b, 2);
            Eventually.await("b in contact", Duration.ofSeconds(10), b::connected);
            proxy.delayAnswers(Duration.ofMillis(1500));
            long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (System.nanoTime() < end) {
                assertTrue(b.connected(), "the standby lost contact through answers 1.5 s late: " + log);
                assertTrue(a.isLeader() && !b.isLeader(), log.toString());
                Thread.sleep(100);
            }
            assertTrue(warnings.size() <= 1, "a warning per slow answer: " + warnings.stream().map(java.util.logging.LogRecord::getMessage)
                    .toList());
            proxy.delayAnswers(Duration.ZERO);
            a.stop(Duration.ofSeconds(10));
            end(1);
            b.stop(Duration.ofSeconds(10));
        } finally {
            logger.removeHandler(handler);
        }
    }

    @Test
    void notBeingAllowedToUpdateLeasesFailsAtOnce() throws Exception {
        java.nio.file.Path rbac = Testbed.runDir().resolveSibling("testbed-rbac-election");
        java.util.Properties env = Testbed.up(rbac, "--authorization-mode=RBAC");
        try {
            String token = Testbed.token(rbac, "operators", "no-leases");
            ApiClient client = Config.fromToken(env.getProperty("TESTBED_SERVER"), token, false);
            LeaderElector elector = elector(client, "default", "x", Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));
            KubernetesException e = assertThrows(KubernetesException.class, () -> elector.run(new LeaderElector.Leadership() {
                @Override
                public void acquired() {
                }

                @Override
                public void lost(LeaderElector.LeadershipLost cause) {
                }
            }));
            assertEquals(403, e.code(), e.getMessage());
        } finally {
            Testbed.down(rbac);
        }
    }

    @Test
    void settingsAreValidated() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ElectionSettings("lease",
                "default", "me", Duration.ofSeconds(15), Duration.ofSeconds(20), Duration.ofSeconds(2)));
        assertTrue(e.getMessage().contains("mooring.leader-election.renew-deadline"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ElectionSettings("Bad_Name", "default", "me",
                Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2)));
    }
}
