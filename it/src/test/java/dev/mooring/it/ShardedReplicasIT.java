package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.shard.ShardMap;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two Liberty servers with the same EAR and {@code mooring.sharding.shards=4} against one API
 * server: both reconcile at once, each object only by the replica whose health data lists its
 * shard; after one is killed (kill -9), the other takes every shard within the Lease's duration
 * and reconciles every object.
 */
class ShardedReplicasIT {

    private static final int SHARDS = 4;
    private static final int OBJECTS = 16;
    private static final Duration LEASE = Duration.ofSeconds(6);
    private static final Pattern OWNED = Pattern.compile("shards \\[([0-9, ]*)\\] of " + SHARDS);

    private final List<LibertyProcess> servers = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (LibertyProcess server : servers) {
            server.command("stop");
        }
    }

    private LibertyProcess start(String identity, String namespace, Path ear) throws Exception {
        LibertyProcess server = LibertyProcess.start("sharded-" + identity,
                Path.of(System.getProperty("mooring.it.failover.dir"), "sharded-" + identity), ear, Map.of(),
                "mooring.sharding.shards=" + SHARDS, "mooring.leader-election.identity=" + identity,
                "mooring.leader-election.namespace=" + namespace, "mooring.leader-election.lease-name=work",
                "mooring.leader-election.lease-duration=6s", "mooring.leader-election.renew-deadline=4s",
                "mooring.leader-election.retry-period=1s", "mooring.controller.ticks.namespace=" + namespace);
        servers.add(server);
        return server;
    }

    /** The shards a replica's readiness data says it owns; empty while not ready. */
    private static Set<Integer> owned(LibertyProcess server) throws Exception {
        Http.Answer ready = server.get("/health/ready");
        Set<Integer> shards = new HashSet<>();
        if (ready.status() != 200) {
            return shards;
        }
        Matcher matcher = OWNED.matcher(ready.check("mooring-controllers").getJsonObject("data").getString("sharding", ""));
        if (matcher.find() && !matcher.group(1).isBlank()) {
            for (String shard : matcher.group(1).split(", ")) {
                shards.add(Integer.parseInt(shard.trim()));
            }
        }
        return shards;
    }

    /** name -> replicas that passed it at {@code resourceVersions.get(name)}, from both logs. */
    private static Map<String, Set<String>> passes(Map<String, String> resourceVersions, LibertyProcess... servers) throws Exception {
        Map<String, Set<String>> by = new HashMap<>();
        for (LibertyProcess server : servers) {
            for (String line : Files.readString(server.log()).split("\n")) {
                int at = line.indexOf("RECONCILE ");
                if (at >= 0) {
                    String[] parts = line.substring(at).trim().split(" ");
                    if (parts.length > 4 && parts[3].equals(resourceVersions.get(parts[4]))) {
                        by.computeIfAbsent(parts[4], name -> new HashSet<>()).add(parts[1]);
                    }
                }
            }
        }
        return by;
    }

    private static Map<String, String> touchAll(CoreV1Api core, String namespace, int round) throws Exception {
        Map<String, String> versions = new HashMap<>();
        for (int i = 0; i < OBJECTS; i++) {
            V1ConfigMap map = core.readNamespacedConfigMap("c-" + i, namespace).execute();
            versions.put("c-" + i, core.replaceNamespacedConfigMap("c-" + i, namespace, map.data(Map.of("round", "" + round))).execute()
                    .getMetadata().getResourceVersion());
        }
        return versions;
    }

    @Test
    void twoReplicasShareTheObjectsAndTheSurvivorTakesAllAfterAKill() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "sharded");
        for (int i = 0; i < OBJECTS; i++) {
            core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("c-" + i))).execute();
        }
        Path ear = Path.of(System.getProperty("mooring.it.failover.dir"), "sharded.ear");
        Files.createDirectories(ear.getParent());
        JavaArchive probe = ShrinkWrap.create(JavaArchive.class, "ticks.jar").addClasses(dev.mooring.it.failover.ReconcileLog.class)
                .addAsManifestResource(Ears.ANNOTATED_BEANS, "beans.xml");
        ShrinkWrap.create(EnterpriseArchive.class, "sharded.ear").merge(Ears.mooring()).addAsLibrary(probe)
                .as(ZipExporter.class).exportTo(ear.toFile(), true);

        LibertyProcess a = start("a", namespace, ear);
        LibertyProcess b = start("b", namespace, ear);
        Eventually.await("two shards each", Duration.ofSeconds(90), () -> owned(a).size() == 2 && owned(b).size() == 2);
        Set<Integer> ofA = owned(a);
        Set<Integer> ofB = owned(b);
        Map<String, Double> samples = Prometheus.parse(a.get("/metrics").body());
        assertEquals(2.0, samples.get(Prometheus.key("mooring_shards_owned", "name=\"work\"")), "a's owned shards gauge");
        assertEquals(2.0, samples.get(Prometheus.key("mooring_shard_members", "name=\"work\"")));
        assertEquals((double) SHARDS, samples.get(Prometheus.key("mooring_shards", "name=\"work\"")));
        ShardMap map = new ShardMap(SHARDS);

        Map<String, String> round1 = touchAll(core, namespace, 1);
        Eventually.await("every object passed", Duration.ofSeconds(30), () -> passes(round1, a, b).size() == OBJECTS);
        Thread.sleep(1000); // a second pass by the other replica would show now
        Map<String, Set<String>> by = passes(round1, a, b);
        for (int i = 0; i < OBJECTS; i++) {
            String name = "c-" + i;
            int shard = map.shardOf(new ObjectKey(namespace, name));
            assertEquals(Set.of(ofA.contains(shard) ? "a" : "b"), by.get(name),
                    name + " (shard " + shard + "; a owns " + ofA + ", b " + ofB + ")");
        }
        assertTrue(by.values().stream().anyMatch(replicas -> replicas.contains("a"))
                && by.values().stream().anyMatch(replicas -> replicas.contains("b")), "both replicas reconciled: " + by);

        long kill = System.nanoTime();
        b.kill9();
        servers.remove(b);
        Eventually.await("a owns every shard", Duration.ofSeconds(30), () -> owned(a).size() == SHARDS);
        Duration moved = Duration.ofNanos(System.nanoTime() - kill);
        assertTrue(moved.compareTo(LEASE.plusSeconds(4)) < 0, "b's shards moved " + moved.toMillis() + " ms after the kill");
        Map<String, String> round2 = touchAll(core, namespace, 2);
        Eventually.await("a passes every object", Duration.ofSeconds(30),
                () -> passes(round2, a).size() == OBJECTS && passes(round2, a).values().stream().allMatch(Set.of("a")::equals));
        Map<String, Double> after = Prometheus.parse(a.get("/metrics").body());
        double taken = after.get(Prometheus.key("mooring_shard_acquisitions_total", "name=\"work\""));
        assertTrue(taken >= SHARDS, "a took its own shards and b's, at least " + SHARDS + " acquisitions: " + taken);
        assertEquals(0.0, after.get(Prometheus.key("mooring_shard_losses_total", "name=\"work\"")), "a lost none");
    }
}
