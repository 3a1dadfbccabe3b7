package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.api.ObjectKey;
import dev.mooring.engine.replica.ShardMap;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Three Liberty servers with the same EAR and {@code mooring.sharding.shards=8}, each with a
 * ServiceAccount token of its own, against an API server of their own that writes an audit log,
 * while a writer changes the ConfigMaps all along: one replica is killed (kill -9), then another
 * is frozen (SIGSTOP) and later resumed. The shards move to the live replicas once their Leases
 * expired (the acquisitions' log records say from whom; how soon is printed, not asserted, since a
 * busy machine makes it later without making it wrong), every ConfigMap converges, and the audit log shows that every write of a
 * replica was committed while the Lease of its key's shard, at that write's etcd revision, named
 * that replica as holder: no key is written by two replicas in overlapping terms.
 */
class ShardedReplicasIT {

    private static final int SHARDS = 8;
    private static final int OBJECTS = 48;
    private static final Duration LEASE = Duration.ofSeconds(6);
    /** A bound for liveness only: expiry is seen by a round (1 s apart) after the Lease's duration, on a quiet machine. */
    private static final Duration MOVED = LEASE.plusSeconds(60);
    private static final String NAMESPACE = "sharded";
    private static final Pattern OWNED = Pattern.compile("shards \\[([0-9, ]*)\\] of " + SHARDS);

    private final Path dir = Path.of(System.getProperty("mooring.it.failover.dir")).resolveSibling("sharded");
    private final Path runDir = dir.resolve("testbed");
    private final List<LibertyProcess> servers = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private volatile boolean churning;
    private LibertyProcess frozen;
    private boolean testbedUp;

    @AfterEach
    void stopAll() throws Exception {
        churning = false;
        if (frozen != null) {
            frozen.signal("CONT");
        }
        for (LibertyProcess server : servers) {
            server.command("stop");
        }
        threads.shutdownNow();
        if (testbedUp) {
            Testbed.down(runDir);
        }
    }

    @Test
    void threeReplicasShareTheWorkThroughAKillAndAFreezeAndNoKeyIsWrittenOutsideItsWritersTerm() throws Exception {
        List<String> auditFlags = Testbed.auditFlags(dir, """
                - level: RequestResponse
                  verbs: [create, update, patch]
                  resources:
                  - group: ""
                    resources: [configmaps]
                  - group: coordination.k8s.io
                    resources: [leases]
                """);
        Path audit = dir.resolve("audit.log");
        Properties env = Testbed.up(runDir, auditFlags.toArray(String[]::new));
        testbedUp = true;
        CoreV1Api core = new CoreV1Api(Config.fromConfig(runDir.resolve("admin.kubeconfig").toString()));
        core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE))).execute();
        for (int i = 0; i < OBJECTS; i++) {
            core.createNamespacedConfigMap(NAMESPACE, new V1ConfigMap().metadata(new V1ObjectMeta().name("c-" + i))
                    .data(Map.of("round", "0"))).execute();
        }
        Path ear = dir.resolve("sharded.ear");
        JavaArchive probe = ShrinkWrap.create(JavaArchive.class, "stamps.jar").addClasses(dev.mooring.it.failover.RoundStamp.class)
                .addAsManifestResource(Ears.ANNOTATED_BEANS, "beans.xml");
        ShrinkWrap.create(EnterpriseArchive.class, "sharded.ear").merge(Ears.mooring()).addAsLibrary(probe)
                .as(ZipExporter.class).exportTo(ear.toFile(), true);

        List<Future<LibertyProcess>> starting = new ArrayList<>();
        for (String identity : List.of("a", "b", "c")) {
            Path kubeconfig = Testbed.tokenKubeconfig(dir.resolve(identity + ".kubeconfig"), env,
                    Testbed.token(runDir, NAMESPACE, "replica-" + identity));
            starting.add(threads.submit(() -> start(identity, ear, kubeconfig)));
        }
        for (Future<LibertyProcess> server : starting) {
            servers.add(server.get());
        }
        LibertyProcess a = servers.get(0);
        LibertyProcess b = servers.get(1);
        LibertyProcess c = servers.get(2);
        Eventually.await("shares of 3, 3 and 2", Duration.ofSeconds(120), () -> shared(List.of(3, 3, 2), a, b, c));
        Map<String, Double> samples = Prometheus.parse(a.get("/metrics").body());
        assertEquals((double) owned(a).size(), samples.get(Prometheus.key("mooring_shards_owned", "name=\"work\"")), "a's gauge");
        assertEquals(3.0, samples.get(Prometheus.key("mooring_shard_members", "name=\"work\"")));
        assertEquals((double) SHARDS, samples.get(Prometheus.key("mooring_shards", "name=\"work\"")));

        churning = true;
        Future<Integer> churn = threads.submit(() -> churn(core));
        Thread.sleep(3000);
        Set<Integer> ofC = owned(c);
        long killed = System.nanoTime();
        c.kill9();
        servers.remove(c);
        Eventually.await("a and b own every shard", MOVED, () -> shared(List.of(4, 4), a, b));
        Duration afterKill = Duration.ofNanos(System.nanoTime() - killed);
        System.out.println("[sharded replicas] c's shards moved " + afterKill.toMillis() + " ms after the kill");
        assertEquals(ofC.size(), takenOver("c", a, b), "c's shards taken over once their Leases expired");

        Thread.sleep(2000);
        Set<Integer> ofB = owned(b);
        long stopped = System.nanoTime();
        b.signal("STOP");
        frozen = b;
        Eventually.await("a owns every shard", MOVED, () -> shared(List.of(SHARDS), a));
        Duration afterFreeze = Duration.ofNanos(System.nanoTime() - stopped);
        System.out.println("[sharded replicas] b's shards moved " + afterFreeze.toMillis() + " ms after the freeze");
        assertEquals(ofB.size(), takenOver("b", a), "b's shards taken over once their Leases expired");
        Thread.sleep(2000);
        b.signal("CONT");
        frozen = null;
        Eventually.await("b back with half", Duration.ofSeconds(60), () -> shared(List.of(4, 4), a, b));

        churning = false;
        int changes = churn.get();
        assertTrue(changes > 50, "the writer changed " + changes + " ConfigMaps");
        Eventually.await("every ConfigMap shows its last round", Duration.ofSeconds(60), () -> unconverged(core).isEmpty());

        Map<String, Double> ofA = Prometheus.parse(a.get("/metrics").body());
        assertTrue(ofA.get(Prometheus.key("mooring_shard_acquisitions_total", "name=\"work\"")) >= SHARDS,
                "a took its own shards, some of c's and all of b's: " + ofA);
        assertEquals(0.0, ofA.get(Prometheus.key("mooring_shard_losses_total", "name=\"work\"")), "a released, never lost");
        assertEquals((double) ofB.size(), Prometheus.parse(b.get("/metrics").body())
                .get(Prometheus.key("mooring_shard_losses_total", "name=\"work\"")), "b lost what it held when frozen");

        for (LibertyProcess server : servers) {
            server.command("stop");
        }
        servers.clear();
        assertNoWriteOutsideTheWritersTerm(audit, ofC, ofB);
    }

    /** How many shard acquisitions in the logs of {@code takers} say the Lease expired from {@code holder}. */
    private static long takenOver(String holder, LibertyProcess... takers) throws java.io.IOException {
        long count = 0;
        for (LibertyProcess taker : takers) {
            count += Files.readString(taker.log()).lines().filter(line -> line.contains("Acquired shard ")
                    && line.contains(", expired from '" + holder + "'")).count();
        }
        return count;
    }

    private LibertyProcess start(String identity, Path ear, Path kubeconfig) throws Exception {
        return LibertyProcess.start("sharded-" + identity, dir.resolve(identity), ear, Map.of("KUBECONFIG", kubeconfig.toString()),
                "mooring.sharding.shards=" + SHARDS, "mooring.leader-election.identity=" + identity,
                "mooring.leader-election.namespace=" + NAMESPACE, "mooring.leader-election.lease-name=work",
                "mooring.leader-election.lease-duration=6s", "mooring.leader-election.renew-deadline=4s",
                "mooring.leader-election.retry-period=1s", "mooring.controller.stamps.namespace=" + NAMESPACE);
    }

    /** True when the replicas own, in order, {@code shares} shards, none twice, every one of them. */
    private static boolean shared(List<Integer> shares, LibertyProcess... replicas) throws Exception {
        Set<Integer> all = new HashSet<>();
        List<Integer> sizes = new ArrayList<>();
        for (LibertyProcess replica : replicas) {
            Set<Integer> owned = owned(replica);
            sizes.add(owned.size());
            all.addAll(owned);
        }
        List<Integer> sorted = new ArrayList<>(sizes);
        sorted.sort(java.util.Comparator.reverseOrder());
        return sorted.equals(shares) && all.size() == SHARDS;
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

    /** Raises the round of a random ConfigMap every 20 ms until told to stop; returns the changes made. */
    private int churn(CoreV1Api core) throws Exception {
        Random random = new Random(25);
        int changes = 0;
        while (churning) {
            String name = "c-" + random.nextInt(OBJECTS);
            V1ConfigMap map = core.readNamespacedConfigMap(name, NAMESPACE).execute();
            int round = Integer.parseInt(map.getData().get("round"));
            try {
                core.replaceNamespacedConfigMap(name, NAMESPACE, map.data(Map.of("round", Integer.toString(round + 1)))).execute();
                changes++;
            } catch (ApiException e) {
                if (e.getCode() != 409) { // 409: a replica stamped it meanwhile
                    throw e;
                }
            }
            Thread.sleep(20);
        }
        return changes;
    }

    /** ConfigMaps whose annotation {@code seen} is not their round. */
    private static List<String> unconverged(CoreV1Api core) throws Exception {
        List<String> behind = new ArrayList<>();
        for (V1ConfigMap map : core.listNamespacedConfigMap(NAMESPACE).execute().getItems()) {
            Map<String, String> annotations = map.getMetadata().getAnnotations();
            if (map.getData() != null && !map.getData().get("round").equals(annotations == null ? null : annotations.get("seen"))) {
                behind.add(map.getMetadata().getName());
            }
        }
        return behind;
    }

    /**
     * From the audit log: every ConfigMap write of a replica (user replica-x) was committed at an
     * etcd revision at which the Lease of its key's shard was last written with holder x. etcd's
     * revisions order the writes of both kinds, so the check needs no clock.
     */
    private static void assertNoWriteOutsideTheWritersTerm(Path audit, Set<Integer> ofC, Set<Integer> ofB) throws Exception {
        Map<String, TreeMap<Long, String>> holders = new TreeMap<>();
        List<String[]> writes = new ArrayList<>();
        String replica = "system:serviceaccount:" + NAMESPACE + ":replica-";
        for (String line : Files.readAllLines(audit)) {
            JsonObject event = JsonParser.parseString(line).getAsJsonObject();
            int code = event.getAsJsonObject("responseStatus").get("code").getAsInt();
            if (!"ResponseComplete".equals(event.get("stage").getAsString()) || code < 200 || code > 299) {
                continue;
            }
            JsonObject stored = event.getAsJsonObject("responseObject");
            JsonObject metadata = stored.getAsJsonObject("metadata");
            long revision = Long.parseLong(metadata.get("resourceVersion").getAsString());
            String name = metadata.get("name").getAsString();
            String resource = event.getAsJsonObject("objectRef").get("resource").getAsString();
            String user = event.getAsJsonObject("user").get("username").getAsString();
            if (resource.equals("leases") && name.startsWith("work-shard-")) {
                JsonElement holder = stored.has("spec") ? stored.getAsJsonObject("spec").get("holderIdentity") : null;
                holders.computeIfAbsent(name, lease -> new TreeMap<>()).put(revision,
                        holder == null || holder.isJsonNull() ? "" : holder.getAsString());
            } else if (resource.equals("configmaps") && user.startsWith(replica)) {
                writes.add(new String[] {user.substring(replica.length()), name, Long.toString(revision)});
            }
        }
        ShardMap map = new ShardMap(SHARDS);
        List<String> outside = new ArrayList<>();
        Map<String, Integer> byReplica = new TreeMap<>();
        boolean aWroteForC = false;
        boolean aWroteForB = false;
        for (String[] write : writes) {
            int shard = map.shardOf(new ObjectKey(NAMESPACE, write[1]));
            long revision = Long.parseLong(write[2]);
            Map.Entry<Long, String> term = holders.getOrDefault("work-shard-" + shard, new TreeMap<>()).lowerEntry(revision);
            String holder = term == null ? "(none)" : term.getValue();
            if (!holder.equals(write[0])) {
                outside.add(write[0] + " wrote " + write[1] + " (shard " + shard + ") at revision " + revision + " while "
                        + holder + " held it");
            }
            byReplica.merge(write[0], 1, Integer::sum);
            aWroteForC |= write[0].equals("a") && ofC.contains(shard);
            aWroteForB |= write[0].equals("a") && ofB.contains(shard);
        }
        assertEquals(List.of(), outside, "writes outside the writer's term");
        assertEquals(Set.of("a", "b", "c"), byReplica.keySet(), "every replica wrote: " + byReplica);
        assertTrue(aWroteForC && aWroteForB, "a wrote for shards taken over from c and from b (" + ofC + ", " + ofB + ")");
        assertTrue(writes.size() > OBJECTS, writes.size() + " writes checked");
    }
}
