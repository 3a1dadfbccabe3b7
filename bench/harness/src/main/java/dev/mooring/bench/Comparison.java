package dev.mooring.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A benchmark. */
final class Comparison extends Harness {

    Comparison(int n, int runs, int seconds, int rate) {
        super(n, runs, seconds, rate);
    }

    /** How long a pass of the waiting reconciler waits, as on I/O. */
    static final int WAIT_MILLIS = 10;
    /** Mooring's worker counts tried with the waiting reconciler. */
    static final List<Integer> WORKERS = List.of(1, 4, 16, 64);

    @Override
    void run() throws Exception {
        withCluster(() -> {
            try {
                for (int run = 0; run < runs; run++) {
                    List<String> order = run % 2 == 0 ? List.of("JOSDK", "Mooring") : List.of("Mooring", "JOSDK");
                    for (String peer : order) {
                        drain(peer);
                        idle(peer);
                        configMaps(peer);
                    }
                    waitingDrain("JOSDK", 0);
                    for (int workers : WORKERS) {
                        waitingDrain("Mooring", workers);
                    }
                    admission();
                    System.out.println("run " + (run + 1) + " of " + runs + " done");
                }
            } catch (Exception | Error e) {
                System.out.println("The benchmark failed; what it measured so far:\n" + results.draft(n, rate));
                throw e;
            }
            String table = results.table(n, runs, seconds, rate) + "\n" + results.waitingTable(waiting(), WAIT_MILLIS, WORKERS);
            publish(table, "results.md");
        });
    }

    /** N ticks drained from a fresh start, the requests it sent, the heap with N cached, then update latencies. */
    private void drain(String name) throws Exception {
        long requestsBefore = requests();
        try (Peer peer = launch(name, environment(TICKS, n, EMPTY, 0))) {
            recordStart(peer);
            TimeUnit.SECONDS.sleep(1);
            long requests = requests() - requestsBefore;
            results.add(name, Results.REQUESTS_PER_RECONCILE, (double) requests / n);
            results.add(name, Results.HEAP_WITH_TICKS, peer.heapAfterGc());
            peer.forgetLatencies(); // what the start-up printed, if anything (t0 still carries the last marker)
            marker();
            peer.awaitLatencies("tick", PATIENCE); // clears the latencies of the drain
            String loaded = exec(List.of(java(), "-cp", classpath(), Load.class.getName(), "updates", kubeconfig.toString(), TICKS,
                    Integer.toString(n), Integer.toString(rate), Integer.toString(seconds)), Map.of());
            if (!loaded.contains("failed 0") || Pattern.compile("failed [1-9]").matcher(loaded).find()) {
                throw new IllegalStateException("The update loader failed: " + loaded);
            }
            TimeUnit.SECONDS.sleep(1);
            marker();
            List<Long> latencies = peer.awaitLatencies("tick", PATIENCE);
            if (latencies.size() < Math.min(n, rate * seconds) / 2) {
                throw new IllegalStateException(name + " reconciled only " + latencies.size() + " of " + rate * seconds + " changes");
            }
            results.add(name, Results.UPDATE_P50, Results.percentile(latencies, 50));
            results.add(name, Results.UPDATE_P99, Results.percentile(latencies, 99));
        }
    }

    /**
     * A reconciler that waits {@value #WAIT_MILLIS} ms a pass (as on I/O) drains its objects from
     * the engine's start: JOSDK with its default threads; Mooring with {@code workers} workers.
     */
    private void waitingDrain(String name, int workers) throws Exception {
        Map<String, String> environment = environment(WAITING, waiting(), EMPTY, 0);
        environment.put("BENCH_WAIT_MS", Integer.toString(WAIT_MILLIS));
        if (workers > 0) {
            environment.put("MOORING_CONTROLLER_TICKS_WORKERS", Integer.toString(workers));
        }
        try (Peer peer = launch(name, environment)) {
            long engine = peer.await("engine start", PATIENCE);
            long all = peer.await("reconciled tick", PATIENCE);
            results.add(name, Results.waiting(workers), waiting() * 1000.0 / Math.max(1, all - engine));
        }
    }

    /** The heap after GC with N ConfigMaps of 1 KiB cached. */
    private void configMaps(String name) throws Exception {
        try (Peer peer = launch(name, environment(EMPTY, 0, CONFIGMAPS, n))) {
            peer.await("reconciled configmap", PATIENCE);
            peer.await("ready", PATIENCE);
            TimeUnit.SECONDS.sleep(1);
            results.add(name, Results.HEAP_WITH_CONFIGMAPS, peer.heapAfterGc());
        }
    }

    /** Admission round trips at the rate: Mooring's validator and a bare Jakarta REST echo, in the same Liberty. */
    private void admission() throws Exception {
        try (Peer peer = mooring("bench-admission", admissionEnvironment())) {
            peer.await("ready", PATIENCE);
            String base = "https://127.0.0.1:" + httpsPort;
            String loaded = exec(List.of(java(), "-cp", classpath(), Load.class.getName(), "admission", Integer.toString(rate),
                    Integer.toString(seconds), tls.resolve("ca.crt").toString(), base + webhookPath(), base + "/echo/"), Map.of());
            if (!Pattern.compile("(?m)^LOAD sent \\d+ failed 0 ").matcher(loaded).find()) {
                throw new IllegalStateException("The admission loader failed: " + loaded);
            }
            Matcher lines = Pattern.compile("LOAD latencies (\\d) \\[([0-9,]*)\\]").matcher(loaded);
            while (lines.find()) {
                List<Long> latencies = java.util.Arrays.stream(lines.group(2).split(",")).map(Long::valueOf).toList();
                String who = lines.group(1).equals("0") ? "Mooring" : "echo";
                results.add(who, Results.ADMISSION_P50, Results.percentile(latencies, 50));
                results.add(who, Results.ADMISSION_P99, Results.percentile(latencies, 99));
            }
        }
    }

    /** Where the generated ValidatingWebhookConfiguration sends Ticks. */
    private String webhookPath() throws IOException {
        Matcher path = Pattern.compile("path: \"?(/[^\"\\s]+)")
                .matcher(Files.readString(root.resolve("bench/tick-mooring-admission/target/manifests/webhooks.yaml")));
        if (!path.find()) {
            throw new IllegalStateException("tick-mooring-admission's webhooks.yaml holds no webhook path");
        }
        return path.group(1);
    }
}
