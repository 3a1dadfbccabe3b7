package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two Liberty servers with the same EAR and leader election against one API server: exactly one
 * reconciles; the other is live, ready with {@code leader: false} (without a warning per probe);
 * a cold standby ({@code warm-standby=false}) does not list the watched kind, a warm one (the
 * default) lists it before it leads and, once it leads, once more, consistently, before its first
 * pass (read-your-writes' hand-over); after a graceful stop the standby
 * acquires the Lease its holder released (without waiting for it to expire); after kill -9 it takes
 * the Lease over, not before its record stayed unchanged for the lease duration; the reconcile
 * logs of both never interleave. How long each hand-over took is printed, not asserted: a busy
 * machine makes it longer without making it wrong.
 */
class FailoverIT {

    /**
     * Mooring's defaults, not the shorter ones of {@link LibertyProcess#election}: a leader whose first
     * attempt (a fresh JVM's first request, on a busy machine) took most of a 4-s renew deadline would
     * lose the Lease it just got, as it must; the defaults leave 10 s for it.
     */
    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofSeconds(2);

    private final List<LibertyProcess> servers = new ArrayList<>();

    private static List<String> acquisitions(LibertyProcess server) throws java.io.IOException {
        return Files.readString(server.log()).lines().filter(line -> line.contains("Acquired Lease")).toList();
    }

    @AfterEach
    void stopAll() throws Exception {
        for (LibertyProcess server : servers) {
            server.command("stop");
        }
    }

    private LibertyProcess start(String identity, String directory, String namespace, Path ear, String... more) throws Exception {
        List<String> properties = new ArrayList<>(LibertyProcess.election(identity, namespace, "failover"));
        properties.addAll(List.of("mooring.leader-election.lease-duration=" + LEASE.toSeconds() + "s",
                "mooring.leader-election.renew-deadline=" + RENEW.toSeconds() + "s",
                "mooring.leader-election.retry-period=" + RETRY.toSeconds() + "s"));
        properties.addAll(List.of(more));
        properties.add("mooring.controller.ticks.namespace=" + namespace);
        LibertyProcess server = LibertyProcess.start("failover-" + directory,
                Path.of(System.getProperty("mooring.it.failover.dir"), directory), ear, Map.of(), properties.toArray(String[]::new));
        servers.add(server);
        return server;
    }

    @Test
    void oneReconcilesAndLeadershipMovesOnStopAndOnKill() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "failover");
        Path ear = Path.of(System.getProperty("mooring.it.failover.dir"), "failover.ear");
        Files.createDirectories(ear.getParent());
        JavaArchive probe = ShrinkWrap.create(JavaArchive.class, "ticks.jar").addClasses(dev.mooring.it.failover.ReconcileLog.class)
                .addAsManifestResource(Ears.ANNOTATED_BEANS, "beans.xml");
        ShrinkWrap.create(EnterpriseArchive.class, "failover.ear")
                .merge(Ears.mooring())
                .addAsLibrary(probe).as(ZipExporter.class).exportTo(ear.toFile(), true);

        // A ticker keeps changing one ConfigMap so that whoever leads keeps reconciling.
        core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("tick")).data(Map.of("n", "0")))
                .execute();
        AtomicBoolean ticking = new AtomicBoolean(true);
        Thread ticker = new Thread(() -> {
            for (int n = 1; ticking.get(); n++) {
                try {
                    V1ConfigMap tick = core.readNamespacedConfigMap("tick", namespace).execute();
                    core.replaceNamespacedConfigMap("tick", namespace, tick.data(Map.of("n", Integer.toString(n)))).execute();
                    Thread.sleep(200);
                } catch (Exception e) {
                    // keep ticking
                }
            }
        });
        ticker.start();
        try {
            LibertyProcess a = start("a", "a", namespace, ear);
            Eventually.await("a ready as leader", Duration.ofSeconds(60), () -> a.get("/health/ready"), FailoverIT::leading);
            LibertyProcess b = start("b", "b", namespace, ear, "mooring.leader-election.warm-standby=false");
            Eventually.await("b started as a standby", Duration.ofSeconds(60), () -> b.get("/health/started"), r -> r.status() == 200);
            // until then /health/started may have answered DOWN (the election's first answer pending), which Liberty logs
            // as a warning, as for any DOWN check: what follows is the standby's own probes
            long startedAt = Files.size(b.log());
            // a standby is ready (able to take over), so that a rolling update can go on; leadership is in the data
            Http.Answer standby = Eventually.await("b ready as a standby", Duration.ofSeconds(30), () -> b.get("/health/ready"),
                    r -> r.status() == 200);
            assertFalse(standby.check("mooring-controllers").getJsonObject("data").getBoolean("leader"), standby.body());
            assertTrue(standby.body().contains("standby"));
            for (int check = 0; check < 5; check++) {
                assertEquals(200, b.get("/health/ready").status());
            }
            String sinceStarted;
            try (java.io.InputStream log = Files.newInputStream(b.log())) {
                log.skipNBytes(startedAt);
                sinceStarted = new String(log.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            assertFalse(sinceStarted.contains(" W "), "probes of a standby log no warning: "
                    + sinceStarted.lines().filter(line -> line.contains(" W ")).toList());
            assertFalse(Files.readString(b.log()).contains("Initial list of ConfigMap"), "the cold standby listed the watched kind");
            Http.Answer standbyMetrics = b.get("/metrics");
            assertEquals(200, standbyMetrics.status(), "the scrape works on a standby");
            Map<String, Double> samples = Prometheus.parse(standbyMetrics.body());
            assertEquals(0.0, samples.get(Prometheus.key("mooring_manager_ready")));
            assertEquals(0.0, samples.get(Prometheus.key("leader_election_master_status", "name=\"failover\"")));

            long terminated = System.currentTimeMillis();
            a.signal("TERM"); // as a container runtime stops a pod: Liberty's shutdown hook stops the server gracefully
            Eventually.await("b leads after a graceful stop", Duration.ofSeconds(60), () -> b.get("/health/ready"), FailoverIT::leading);
            // a's own records of its release may be lost: the JDK resets java.util.logging in a shutdown hook of its own, which
            // runs beside Liberty's; the successor's record says what happened
            long acquired = b.logTime(" as b (released by its last holder)");
            assertEquals(1, acquisitions(b).size(), "b acquired once, the Lease a released, not an expired one: " + acquisitions(b));
            System.out.println("[failover] graceful hand-over " + (acquired - terminated) + " ms after SIGTERM (retry period "
                    + RETRY.toMillis() + " ms)");

            LibertyProcess a2 = start("a", "a2", namespace, ear); // a again, as the standby
            Eventually.await("a started as a standby", Duration.ofSeconds(60), () -> a2.get("/health/started"), r -> r.status() == 200);
            long kill = System.currentTimeMillis();
            b.kill9();
            servers.remove(b);
            Eventually.await("a leads after b was killed", Duration.ofSeconds(60), () -> a2.get("/health/ready"), FailoverIT::leading);
            long acquiredByA2 = a2.logTime("Acquired Lease");
            long crash = acquiredByA2 - kill;
            // b renewed at most a retry period before the kill; a took over a lease duration after it saw that renewal
            assertTrue(crash >= LEASE.toMillis() - RETRY.toMillis() - 500, "a killed leader's Lease was taken over after " + crash
                    + " ms, before it could have expired (lease " + LEASE.toMillis() + " ms, retry " + RETRY.toMillis() + " ms)");
            assertTrue(a2.logTime("(taken over from b, whose record stayed unchanged for " + LEASE.toSeconds() + " s)") == acquiredByA2,
                    "a took the Lease over from the killed b: " + acquisitions(a2));
            System.out.println("[failover] a killed leader replaced after " + crash + " ms (lease " + LEASE.toMillis() + " ms)");
            Thread.sleep(1000);
            // the warm standby listed while b led; the new leader listed once more, consistently, before its first pass
            String a2Log = Files.readString(a2.log());
            String listed = "Initial list of ConfigMap in " + namespace + " ";
            assertEquals(1, a2Log.split(listed, -1).length - 1, "lists of the watched kind by the warm standby: "
                    + a2Log.lines().filter(line -> line.contains("Initial list")).toList());
            assertTrue(a2.logTime(listed) < acquiredByA2, "the warm standby listed before it led");
            assertTrue(a2.logTime("took over: its caches listed again, consistently") >= acquiredByA2,
                    "the new leader's caches listed again once it led: whatever b wrote before it died is in them");
            assertFalse(a2Log.contains("expired (410 Gone); relisting"), "no relist");
        } finally {
            ticking.set(false);
            ticker.join();
        }

        // Merge both logs: the holder of consecutive passes changes exactly at the two hand-overs.
        List<long[]> passes = new ArrayList<>();
        for (String directory : List.of("a", "b", "a2")) {
            Path log = Path.of(System.getProperty("mooring.it.failover.dir"), directory,
                    "servers/failover-" + directory + "/logs/messages.log");
            for (String line : Files.readString(log).split("\n")) {
                int at = line.indexOf("RECONCILE ");
                if (at >= 0) {
                    String[] parts = line.substring(at).trim().split(" ");
                    passes.add(new long[] {parts[1].equals("a") ? 1 : 2, Long.parseLong(parts[2])});
                }
            }
        }
        passes.sort((x, y) -> Long.compare(x[1], y[1]));
        int switches = 0;
        for (int i = 1; i < passes.size(); i++) {
            if (passes.get(i)[0] != passes.get(i - 1)[0]) {
                switches++;
            }
        }
        assertTrue(passes.size() > 10, "too few passes logged: " + passes.size());
        assertEquals(2, switches, "the reconciling replica changed other than at the two hand-overs (overlap)");
    }

    /** Ready, and leading. */
    private static boolean leading(Http.Answer answer) {
        return answer.status() == 200 && answer.check("mooring-controllers").getJsonObject("data").getBoolean("leader", false);
    }
}
