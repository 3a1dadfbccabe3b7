package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Leader election switched on by MicroProfile Config in a real server: the replica acquires the
 * Lease before its controllers start, is ready only as leader, and on undeploy stops its work,
 * ends its leader term, releases the Lease, and ends its process scope, in that order.
 */
@ExtendWith(ArquillianExtension.class)
class LeaderElectionContainerIT {

    private static final String ELECTED = "elected";
    private static final String LOSER = "loser";
    private static String namespace;
    private static String loserNamespace;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = ELECTED, managed = false, testable = false)
    static EnterpriseArchive elected() throws Exception {
        namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "elected");
        JavaArchive module = ShrinkWrap.create(JavaArchive.class, "lifecycle-probe.jar")
                .addClasses(dev.mooring.it.lifecycle.LifecycleProbe.class)
                .addAsManifestResource(Ears.ANNOTATED_BEANS, "beans.xml")
                .addAsManifestResource(new StringAsset("mooring.leader-election.enabled=true\n"
                        + "mooring.leader-election.namespace=" + namespace + "\n"
                        + "mooring.leader-election.identity=replica-one\n"), "microprofile-config.properties");
        return Ears.withLibrary("elected.ear", module);
    }

    @Deployment(name = LOSER, managed = false, testable = false)
    static EnterpriseArchive loser() throws Exception {
        loserNamespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "loser");
        JavaArchive module = ShrinkWrap.create(JavaArchive.class, "slow-probe.jar")
                .addClasses(dev.mooring.it.lifecycle.LifecycleProbe.class, dev.mooring.it.lifecycle.SlowReconciler.class)
                .addAsManifestResource(Ears.ANNOTATED_BEANS, "beans.xml")
                .addAsManifestResource(new StringAsset("mooring.leader-election.enabled=true\n"
                        + "mooring.namespace=" + loserNamespace + "\n"
                        + "mooring.leader-election.identity=replica-two\n"
                        + "mooring.leader-election.lease-duration=4s\nmooring.leader-election.renew-deadline=3s\n"
                        + "mooring.leader-election.retry-period=1s\n"), "microprofile-config.properties");
        return Ears.withLibrary("loser.ear", module);
    }

    /**
     * Another identity takes the Lease while a pass runs that ignores interrupts: the leader term
     * ends (LEADERSHIP_LOST) only after the pass has left, so observers clean up after the workers.
     */
    @Test
    void aLostLeadershipEndsTheTermAfterTheWorkersLeft() throws Exception {
        Path log = Path.of(System.getProperty("mooring.it.liberty.log"));
        KubeHttp raw = new KubeHttp(Testbed.client());
        String lease = "/apis/coordination.k8s.io/v1/namespaces/" + loserNamespace + "/leases/mooring";
        deployer.deploy(LOSER);
        try {
            long offset = Files.size(log);
            Eventually.await("readiness UP as leader", Duration.ofSeconds(60), () -> Http.get("/health/ready"),
                    answer -> answer.status() == 200 && answer.body().contains("leader (replica-two"));
            raw.send("POST", "/api/v1/namespaces/" + loserNamespace + "/configmaps", Map.of(),
                    "{\"metadata\":{\"name\":\"slow\",\"labels\":{\"slow\":\"true\"}}}", "application/json");
            Eventually.await("the slow pass started", Duration.ofSeconds(30), () -> Files.readString(log).substring((int) offset),
                    text -> text.contains("SLOW START slow"));
            String now = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
                    .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.now());
            raw.send("PATCH", lease, Map.of(), "{\"spec\":{\"holderIdentity\":\"thief\",\"leaseDurationSeconds\":3600,"
                    + "\"renewTime\":\"" + now + "\"}}", "application/merge-patch+json");
            String text = Eventually.await("the leader term and the process ended", Duration.ofSeconds(40),
                    () -> Files.readString(log).substring((int) offset), t -> t.contains("LIFECYCLE PROCESS FAILURE"));
            List<String> lifecycle = text.lines().filter(line -> line.contains("LIFECYCLE "))
                    .map(line -> line.substring(line.indexOf("LIFECYCLE ") + "LIFECYCLE ".length()).trim()).toList();
            assertEquals(List.of("LEADER LEADERSHIP_LOST replica-two", "PROCESS FAILURE"),
                    lifecycle.subList(lifecycle.indexOf("LEADER LEADERSHIP_LOST replica-two"), lifecycle.size()),
                    "the leader scope ends first, then the process fails, once: " + lifecycle);
            int slowEnd = text.indexOf("SLOW END slow");
            int lost = text.indexOf("LIFECYCLE LEADER LEADERSHIP_LOST");
            assertTrue(slowEnd >= 0 && slowEnd < lost, "the pass must end before the leader term: " + text.lines()
                    .filter(line -> line.contains("SLOW") || line.contains("LIFECYCLE")).toList());
        } finally {
            deployer.undeploy(LOSER);
        }
    }

    @Test
    void theLeaderRunsItsControllersAndReleasesItsLeaseInOrder() throws Exception {
        Path log = Path.of(System.getProperty("mooring.it.liberty.log"));
        long offset = Files.exists(log) ? Files.size(log) : 0;
        KubeHttp raw = new KubeHttp(Testbed.client());
        String lease = "/apis/coordination.k8s.io/v1/namespaces/" + namespace + "/leases/mooring";
        deployer.deploy(ELECTED);
        try {
            // a standby is ready too: wait for the leadership in the data
            Http.Answer ready = Eventually.await("readiness UP as leader", Duration.ofSeconds(60), () -> Http.get("/health/ready"),
                    answer -> answer.status() == 200 && answer.check("mooring-controllers").getJsonObject("data").getBoolean("leader"));
            assertTrue(ready.body().contains("leader (replica-one"), ready.body());
            JsonObject held = raw.get(lease, Map.of());
            assertEquals("replica-one", held.getAsJsonObject("spec").get("holderIdentity").getAsString());
        } finally {
            deployer.undeploy(ELECTED);
        }
        JsonObject released = raw.get(lease, Map.of());
        assertEquals("", released.getAsJsonObject("spec").get("holderIdentity").getAsString(), "the Lease was not released");

        List<String> events = new ArrayList<>();
        String text = Files.readString(log);
        for (String line : text.substring((int) Math.min(offset, text.length())).split("\n")) {
            int at = line.indexOf("LIFECYCLE ");
            if (at >= 0) {
                events.add(line.substring(at + "LIFECYCLE ".length()).trim());
            }
        }
        assertEquals(List.of("PROCESS STARTUP", "LEADER LEADERSHIP_ACQUIRED replica-one", "LEADER SHUTDOWN replica-one",
                "PROCESS SHUTDOWN"), events);
        int stopping = text.lastIndexOf("Mooring is stopping its controllers");
        int leaderShutdown = text.lastIndexOf("LIFECYCLE LEADER SHUTDOWN");
        int releasedLog = text.lastIndexOf("Released Lease");
        assertTrue(stopping < leaderShutdown && leaderShutdown < releasedLog,
                "order: workers stop, then the leader term ends, then the Lease is released");
    }
}
