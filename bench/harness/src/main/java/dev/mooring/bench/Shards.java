package dev.mooring.bench;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sharding: per replica count (1, 2, 4), that many Mooring servers with
 * {@code mooring.sharding.shards=16} on a fresh set of Leases, over N custom resources, the
 * reconciler waiting 10 ms per pass (as on I/O) with 4 workers per replica. Every pass first
 * waits at a gate (a file) that the harness opens once every replica holds its share of the
 * shards: the initial lists' passes then run on all replicas at once, with no write to the
 * API server to wait for. Measured: from the gate's opening to the moment every object was
 * passed by some replica, and the passes per second that makes.
 */
final class Shards extends Harness {

    Shards(int n, int runs, int seconds, int rate) {
        super(n, runs, seconds, rate);
    }

    /** The replica counts the shards benchmark compares. */
    static final List<Integer> REPLICAS = List.of(1, 2, 4);
    /** Shards of the sharded runs: 16, so that 1, 2 and 4 replicas get even shares. */
    static final int SHARDS = 16;

    @Override
    void run() throws Exception {
        ticksOnly = true;
        shardServers = REPLICAS.get(REPLICAS.size() - 1);
        withCluster(() -> {
            Map<Integer, List<Double>> seconds = new java.util.TreeMap<>();
            Map<Integer, List<Double>> busy = new java.util.TreeMap<>();
            try {
                for (int run = 0; run < runs; run++) {
                    for (int replicas : REPLICAS) {
                        double[] measured = shards(replicas, run);
                        seconds.computeIfAbsent(replicas, r -> new ArrayList<>()).add(measured[0]);
                        busy.computeIfAbsent(replicas, r -> new ArrayList<>()).add(measured[1]);
                    }
                    System.out.println("run " + (run + 1) + " of " + runs + " done");
                }
            } finally {
                System.out.println("Measured so far (s, first pass of a change -> all passed): " + seconds);
            }
            String table = Results.shardsTable(n, runs, SHARDS, seconds, busy);
            publish(table, "results-shards.md");
        });
    }

    /**
     * One sharded run of {@code replicas} servers: the seconds from the gate's opening to all N
     * passed, and the share of the machine's CPU time busy meanwhile (in percent; up to the poll
     * that saw the last pass, at most 200 ms later). Prints each replica's objects, last pass and CPU time.
     */
    private double[] shards(int replicas, int run) throws Exception {
        Map<String, String> environment = environment(TICKS, n, EMPTY, 0);
        String lease = "shards-" + replicas + "-" + run;
        environment.put("MOORING_SHARDING_SHARDS", Integer.toString(SHARDS));
        environment.put("MOORING_LEADER_ELECTION_LEASE_NAME", lease);
        environment.put("MOORING_LEADER_ELECTION_LEASE_DURATION", "6s");
        environment.put("MOORING_LEADER_ELECTION_RENEW_DEADLINE", "4s");
        environment.put("MOORING_LEADER_ELECTION_RETRY_PERIOD", "1s");
        environment.put("MOORING_CONTROLLER_TICKS_WORKERS", "4");
        environment.put("MOORING_CONTROLLER_TICKS_SYNC_TIMEOUT", "10m");
        environment.put("BENCH_WAIT_MS", "10");
        Path gate = work.resolve("gate-" + lease);
        Files.deleteIfExists(gate);
        environment.put("BENCH_GATE", gate.toString());
        List<Peer> peers = new ArrayList<>();
        try {
            for (int replica = 0; replica < replicas; replica++) {
                peers.add(mooring(replica == 0 ? "bench" : SHARD_SERVER + replica, environment));
            }
            for (Peer peer : peers) {
                peer.await("ready", PATIENCE);
            }
            long end = System.nanoTime() + PATIENCE.toNanos();
            while (!balanced(replicas)) {
                if (System.nanoTime() > end) {
                    throw new IllegalStateException(replicas + " replicas never held " + SHARDS / replicas + " shards each");
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
            TimeUnit.SECONDS.sleep(2); // each replica has queued the objects of the shards it took
            long[] machineBefore = MachineCpu.read();
            List<java.time.Duration> cpuBefore = new ArrayList<>();
            for (Peer peer : peers) {
                cpuBefore.add(peer.cpuTime());
            }
            long open = System.currentTimeMillis();
            Files.createFile(gate);
            Map<String, Long> first = new HashMap<>();
            while (first.size() < n) {
                if (System.nanoTime() > end) {
                    throw new IllegalStateException(replicas + " replicas passed " + first.size() + " of " + n + " objects");
                }
                TimeUnit.MILLISECONDS.sleep(200);
                first.clear();
                peers.forEach(peer -> peer.passed().forEach((name, at) -> first.merge(name, at, Math::min)));
            }
            double busy = MachineCpu.busyPercent(machineBefore, MachineCpu.read());
            double allPassed = (first.values().stream().mapToLong(Long::longValue).max().orElseThrow() - open) / 1000.0;
            StringBuilder each = new StringBuilder();
            for (int replica = 0; replica < replicas; replica++) {
                Map<String, Long> passed = peers.get(replica).passed();
                each.append(String.format(java.util.Locale.ROOT, "%n  replica %d: %d objects, last pass at %.2f s, %.2f s of CPU", replica, passed.size(),
                        (passed.values().stream().mapToLong(Long::longValue).max().orElse(open) - open) / 1000.0,
                        (peers.get(replica).cpuTime().minus(cpuBefore.get(replica))).toMillis() / 1000.0));
            }
            System.out.printf(java.util.Locale.ROOT, "%d replicas: all passed at %.2f s, the machine's CPU %.0f %% busy meanwhile%s%n",
                    replicas, allPassed, busy, each);
            return new double[] {allPassed, busy};
        } finally {
            for (Peer peer : peers) {
                peer.close();
            }
        }
    }

    /** Whether each Mooring server of the first {@code replicas} reports {@code SHARDS / replicas} shards in its readiness data. */
    private boolean balanced(int replicas) throws Exception {
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        java.util.regex.Pattern owned = java.util.regex.Pattern.compile("shards \\[([0-9, ]*)\\] of " + SHARDS);
        for (int replica = 0; replica < replicas; replica++) {
            int port = httpPorts.get(replica == 0 ? "bench" : SHARD_SERVER + replica);
            String body = client.send(java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            java.util.regex.Matcher matcher = owned.matcher(body);
            if (!matcher.find() || matcher.group(1).isBlank() || matcher.group(1).split(",").length != SHARDS / replicas) {
                return false;
            }
        }
        return true;
    }
}
