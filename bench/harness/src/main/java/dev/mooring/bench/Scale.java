package dev.mooring.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Many objects (100,000 by default): each peer syncs N custom resources while changes arrive at
 * the rate from its first pass on (how long a fresh change waits behind the backlog), then,
 * freshly started, N ConfigMaps of 1 KiB; the peak heap of each first sync against the steady
 * heap after it, GC pauses, RSS, and the heap per object against its JSON on the wire.
 */
final class Scale extends Harness {

    Scale(int n, int runs, int seconds, int rate) {
        super(n, runs, seconds, rate);
    }

    @Override
    void run() throws Exception {
        withCluster(() -> {
            Map<String, Double> wire = Map.of(
                    "tick", wireBytes("/apis/bench.mooring.dev/v1/namespaces/" + TICKS + "/ticks"),
                    "configmap", wireBytes("/api/v1/namespaces/" + CONFIGMAPS + "/configmaps"));
            try {
                for (int run = 0; run < runs; run++) {
                    for (String peer : run % 2 == 0 ? List.of("JOSDK", "Mooring") : List.of("Mooring", "JOSDK")) {
                        idle(peer);
                        double ticks = firstSync(peer, "tick", environment(TICKS, n, EMPTY, 0), true);
                        allWaiting(peer, "tick", environment(TICKS, n, EMPTY, 0), ticks);
                        double configMaps = firstSync(peer, "configmap", environment(EMPTY, 0, CONFIGMAPS, n), false);
                        allWaiting(peer, "configmap", environment(EMPTY, 0, CONFIGMAPS, n), configMaps);
                    }
                    System.out.println("run " + (run + 1) + " of " + runs + " done");
                }
            } catch (Exception | Error e) {
                System.out.println("The benchmark failed; what it measured so far:\n" + results.draft(n, rate));
                throw e;
            }
            String table = results.scaleTable(n, runs, seconds, rate, wire);
            publish(table, "results-scale.md");
        });
    }

    /** Sync timeouts long enough for 100,000 objects on a busy machine, for both controllers. */
    private static void patientSyncs(Map<String, String> environment) {
        environment.put("MOORING_CONTROLLER_TICKS_SYNC_TIMEOUT", "10m");
        environment.put("MOORING_CONTROLLER_CONFIGMAPS_SYNC_TIMEOUT", "10m");
    }

    /**
     * The first sync's live heap at its fullest: a fresh start on N objects of {@code kind} whose
     * passes wait at a gate, its heap after full collections once every object is cached and
     * waiting for its first pass (the queue or executor full), then the gate opened. A start of its
     * own: the collections would disturb the timed drain of {@link #firstSync}.
     *
     * @param steady the heap after GC with all cached, of the peer's last first sync
     */
    private void allWaiting(String name, String kind, Map<String, String> environment, double steady) throws Exception {
        Path gate = work.resolve("gate-waiting");
        Files.deleteIfExists(gate);
        environment.put("BENCH_GATE", gate.toString());
        patientSyncs(environment);
        try (Peer peer = launch(name, environment)) {
            long waiting = settled(peer, "at the gate " + kind, false).heap(); // the second after: the rest of the list queued
            Files.createFile(gate);
            peer.await("reconciled " + kind, PATIENCE);
            results.add(name, Results.scale(kind, Results.WAITING_HEAP), waiting);
            results.add(name, Results.scale(kind, Results.WAITING_TO_STEADY), waiting / steady);
        }
    }

    /**
     * One fresh start that syncs N objects of {@code kind}: with {@code load}, changes at the rate
     * for the seconds from the first pass on, their latencies measured.
     *
     * @return the steady heap after GC, all cached
     */
    private double firstSync(String name, String kind, Map<String, String> environment, boolean load) throws Exception {
        Path logs = work.resolve("gc");
        Files.createDirectories(logs);
        environment.putAll(gcLogging(logs));
        patientSyncs(environment);
        ExecutorService loader = Executors.newSingleThreadExecutor();
        Path stop = work.resolve("load-stop");
        Path go = work.resolve("load-go");
        Files.deleteIfExists(stop);
        Files.deleteIfExists(go);
        try (Peer peer = launch(name, environment)) {
            Future<String> loaded = null;
            if (load) { // started with the peer, it waits connected for the first pass, so that its changes leave on time
                loaded = loader.submit(() -> exec(List.of(java(), "-cp", classpath(), Load.class.getName(), "updates",
                        kubeconfig.toString(), TICKS, Integer.toString(n), Integer.toString(rate),
                        Long.toString(PATIENCE.toSeconds()), stop.toString(), go.toString()), Map.of()));
            }
            long first = peer.await("first " + kind, PATIENCE);
            if (load) {
                Files.createFile(go);
            }
            if (Boolean.getBoolean("bench.liveAtFirstPass")) { // a diagnosis: what is live while the backlog waits
                System.out.println(name + ", " + n + " " + kind + "s, at the first pass: " + peer.liveNow(25));
            }
            long all = peer.await("reconciled " + kind, PATIENCE);
            GcLog sync = peer.gcLog(logs);
            long peakRss = peer.memory("VmHWM");
            if (loaded != null) {
                TimeUnit.SECONDS.sleep(seconds);
                Files.createFile(stop);
                String output = loaded.get(PATIENCE.toMinutes(), TimeUnit.MINUTES);
                if (!output.contains("failed 0")) {
                    throw new IllegalStateException("The update loader failed: " + output);
                }
                System.out.println(name + ": first pass " + first + " ms after launch, all reconciled at " + all + " ms"
                        + peer.moment("listed").map(listed -> ", the informer's initial list complete at " + listed + " ms").orElse("")
                        + "; " + output.lines().filter(line -> line.startsWith("LOAD")).findFirst().orElse(output.strip()));
                TimeUnit.SECONDS.sleep(1);
                marker();
                recordLatencies(name, kind, peer.awaitChanges(kind, PATIENCE), peer.awaitEpoch("first " + kind, PATIENCE),
                        peer.awaitEpoch("reconciled " + kind, PATIENCE));
            }
            TimeUnit.SECONDS.sleep(1);
            long steady = peer.heapAfterGc();
            if (Boolean.getBoolean("bench.histogram")) {
                System.out.println(name + ", " + n + " " + kind + "s cached:\n" + peer.histogram(30));
            }
            results.add(name, Results.scale(kind, Results.SYNC_SECONDS), all / 1000.0);
            results.add(name, Results.scale(kind, Results.DRAIN_SECONDS), (all - first) / 1000.0);
            results.add(name, Results.scale(kind, Results.PEAK_HEAP), sync.peakAfterGc());
            results.add(name, Results.scale(kind, Results.STEADY_HEAP), steady);
            results.add(name, Results.scale(kind, Results.PEAK_TO_STEADY), (double) sync.peakAfterGc() / steady);
            results.add(name, Results.scale(kind, Results.COMMITTED_HEAP), sync.peakCommitted());
            results.add(name, Results.scale(kind, Results.GC_PAUSES), sync.pauseMillis());
            results.add(name, Results.scale(kind, Results.FULL_GCS), sync.fullCollections());
            results.add(name, Results.scale(kind, Results.PEAK_RSS), peakRss);
            results.add(name, Results.scale(kind, Results.STEADY_RSS), peer.memory("VmRSS"));
            return steady;
        } finally {
            loader.shutdownNow();
        }
    }

    /**
     * The latencies of the changes sent from the first pass until all were reconciled (the
     * drain), and of those sent in the seconds after it (the same rate, no backlog). Changes sent
     * before the first pass are left out: the peer's first sight of them is its start, not a change.
     */
    private void recordLatencies(String name, String kind, List<Peer.Change> changes, long firstPass, long drained) {
        List<Long> during = changes.stream().filter(change -> change.sent() >= firstPass && change.sent() < drained)
                .map(Peer.Change::latency).toList();
        List<Long> after = changes.stream().filter(change -> change.sent() >= drained).map(Peer.Change::latency).toList();
        if (after.size() < rate * seconds / 2) {
            throw new IllegalStateException(name + " reconciled only " + after.size() + " of the " + rate * seconds
                    + " changes sent after its drain");
        }
        results.add(name, Results.scale(kind, Results.DURING_COUNT), during.size());
        if (!during.isEmpty()) {
            results.add(name, Results.scale(kind, Results.DURING_P50), Results.percentile(during, 50));
            results.add(name, Results.scale(kind, Results.DURING_P99), Results.percentile(during, 99));
        }
        results.add(name, Results.scale(kind, Results.AFTER_P50), Results.percentile(after, 50));
        results.add(name, Results.scale(kind, Results.AFTER_P99), Results.percentile(after, 99));
    }

    /**
     * The JVM options that make a peer's JVM log its collections to {@code folder/gc-<pid>.log}
     * (the pid: Liberty's {@code server stop} starts a JVM of its own with the same environment).
     */
    static Map<String, String> gcLogging(Path folder) {
        return Map.of("JAVA_TOOL_OPTIONS", "-Xlog:gc:file=" + folder.resolve("gc-%p.log"));
    }

    /** The average size of one object of a list on the wire (compact JSON, managedFields included), in bytes. */
    private double wireBytes(String path) throws IOException {
        okhttp3.Request request = new okhttp3.Request.Builder().url(http.apiClient().getBasePath() + path + "?limit=500")
                .header("Accept", "application/json").build();
        try (okhttp3.Response response = http.apiClient().getHttpClient().newCall(request).execute()) {
            byte[] body = response.body().bytes();
            int items = com.google.gson.JsonParser.parseString(new String(body, StandardCharsets.UTF_8)).getAsJsonObject()
                    .getAsJsonArray("items").size();
            if (items == 0) {
                throw new IllegalStateException(path + " lists no object");
            }
            return (double) body.length / items;
        }
    }
}
