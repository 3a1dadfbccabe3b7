package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.replica.ElectionSettings;
import dev.mooring.engine.replica.ShardCoordinator;
import dev.mooring.engine.replica.ShardMap;
import dev.mooring.engine.replica.ShardSettings;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.util.Config;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Shard Leases on the real API server: three coordinators in one JVM share six shards, one of
 * them is cut off from the API server (as a frozen or partitioned replica is), then another
 * stops; a sampler checks every 10 ms that no shard's keys may be written by two replicas at once.
 */
class ShardingIT {

    private static final int SHARDS = 6;
    private static final Duration LEASE = Duration.ofSeconds(6);
    private static final Duration RENEW = Duration.ofSeconds(4);
    private static final Duration RETRY = Duration.ofSeconds(1);

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<String> overlaps = new CopyOnWriteArrayList<>();
    private volatile boolean sampling = true;

    @AfterEach
    void shutdown() throws InterruptedException {
        sampling = false;
        threads.shutdownNow();
        threads.awaitTermination(10, TimeUnit.SECONDS);
    }

    private ShardCoordinator coordinator(ApiClient client, String namespace, String identity) {
        ShardCoordinator coordinator = new ShardCoordinator(new KubeHttp(client),
                new ShardSettings(new ElectionSettings("work", namespace, identity, LEASE, RENEW, RETRY), SHARDS), threads);
        threads.submit(coordinator::run);
        return coordinator;
    }

    /** One key of each shard. */
    private static List<ObjectKey> keyPerShard() {
        ShardMap map = new ShardMap(SHARDS);
        ObjectKey[] keys = new ObjectKey[SHARDS];
        for (int i = 0, found = 0; found < SHARDS; i++) {
            ObjectKey key = new ObjectKey("default", "object-" + i);
            if (keys[map.shardOf(key)] == null) {
                keys[map.shardOf(key)] = key;
                found++;
            }
        }
        return List.of(keys);
    }

    private void sample(List<ShardCoordinator> replicas) {
        List<ObjectKey> keys = keyPerShard();
        threads.submit(() -> {
            while (sampling) {
                for (ObjectKey key : keys) {
                    List<String> writers = new ArrayList<>();
                    for (ShardCoordinator replica : replicas) {
                        if (replica.writesAllowed(key)) {
                            writers.add(replica.settings().election().identity());
                        }
                    }
                    if (writers.size() > 1) {
                        overlaps.add(key + " writable by " + writers);
                    }
                }
                Thread.sleep(10);
            }
            return null;
        });
    }

    private static int owned(List<ShardCoordinator> replicas) {
        return replicas.stream().mapToInt(replica -> replica.owned().size()).sum();
    }

    @Test
    void threeReplicasShareTheShardsAndTheSurvivorsTakeOverACutOffOneWithinTheLeaseDuration() throws Exception {
        String namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "sharding");
        try (FreezingProxy proxy = new FreezingProxy(Integer.parseInt(Testbed.env().getProperty("TESTBED_PORT")))) {
            ApiClient cutOffLater = Config.fromConfig(Testbed.runDir().resolve("admin.kubeconfig").toString())
                    .setBasePath("https://127.0.0.1:" + proxy.port());
            ShardCoordinator a = coordinator(Testbed.client(), namespace, "a");
            ShardCoordinator b = coordinator(Testbed.client(), namespace, "b");
            ShardCoordinator c = coordinator(cutOffLater, namespace, "c");
            List<ShardCoordinator> all = List.of(a, b, c);
            sample(all);
            Eventually.await("two shards each", Duration.ofSeconds(30),
                    () -> a.owned().size() == 2 && b.owned().size() == 2 && c.owned().size() == 2);
            assertEquals(List.of("a", "b", "c"), a.members());

            // the bounds below are for liveness only: how soon is printed, what makes it right is asserted
            try (LogRecords records = new LogRecords(ShardCoordinator.class)) {
                proxy.freezeOpenConnections();
                proxy.close(); // c reaches the API server no more
                long cut = System.nanoTime();
                Eventually.await("c stops at its renew deadline", Duration.ofSeconds(60), () -> c.owned().isEmpty());
                Eventually.await("a and b hold all six", Duration.ofSeconds(60),
                        () -> a.owned().size() == 3 && b.owned().size() == 3);
                System.out.println("[sharding] c's shards moved " + Duration.ofNanos(System.nanoTime() - cut).toMillis()
                        + " ms after the cut (lease duration " + LEASE.toMillis() + " ms)");
                assertEquals(2, records.containing("expired from 'c'").size(), "c's two shards taken over once their Leases expired: "
                        + records.messages());
            }
            assertEquals(List.of("a", "b"), a.members());

            try (LogRecords records = new LogRecords(ShardCoordinator.class)) {
                a.stop(Duration.ofSeconds(10));
                Eventually.await("b takes a's shards as a leaves", Duration.ofSeconds(60), () -> b.owned().size() == SHARDS);
                assertEquals(1, records.containing("Left the shard group ").stream().filter(m -> m.contains("releasing shards [")).count(),
                        "a left, releasing its shards: " + records.messages());
                assertEquals(List.of(), records.containing("expired from"), "b took a's shards without waiting for them to expire");
                assertEquals(3, records.containing("Acquired shard ").size(), records.messages().toString());
            }
            b.stop(Duration.ofSeconds(10));
            assertEquals(0, owned(List.of(a, b)));
            assertEquals(List.of(), overlaps, "a shard writable by two replicas at once");
        }
    }
}
