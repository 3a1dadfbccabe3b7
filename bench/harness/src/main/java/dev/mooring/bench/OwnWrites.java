package dev.mooring.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Read-your-writes' cost and gain, Mooring with it on and off, side by side: a reconciler that
 * writes and reads its own writes at once ({@code CounterReconciler}: N Ticks each counted up to
 * {@value #COUNT_TO} by guarded updates, the next pass requested at once) drains them from the
 * launch; then the loader changes them at the rate for S seconds, each change acknowledged by one
 * more guarded update. Measured: the drain's rate, the changes' latency, the API server's requests
 * and its 409 answers (the updates it refused as stale).
 */
final class OwnWrites extends Harness {

    static final int COUNT_TO = 5;
    static final String ON = "Mooring, read-your-writes on";
    static final String OFF = "Mooring, read-your-writes off";

    OwnWrites(int n, int runs, int seconds, int rate) {
        super(n, runs, seconds, rate);
        ticksOnly = true;
    }

    @Override
    void run() throws Exception {
        withCluster(() -> {
            for (int run = 0; run < runs; run++) {
                List<String> order = run % 2 == 0 ? List.of(ON, OFF) : List.of(OFF, ON);
                for (String peer : order) {
                    measure(peer, "bench-count-" + run + (peer.equals(ON) ? "-on" : "-off"));
                }
                System.out.println("run " + (run + 1) + " of " + runs + " done");
            }
            publish(results.writesTable(n, runs, seconds, rate, COUNT_TO, ON, OFF), "results-writes.md");
        });
    }

    private void measure(String peer, String namespace) throws Exception {
        prepare(namespace);
        long conflictsBefore = conflicts();
        long requestsBefore = requests();
        Map<String, String> environment = environment(EMPTY, 0, EMPTY, 0);
        environment.put("MOORING_CONTROLLER_COUNTERS_NAMESPACE", namespace);
        environment.put("BENCH_COUNTERS", Integer.toString(n));
        environment.put("BENCH_COUNT_TO", Integer.toString(COUNT_TO));
        environment.put("MOORING_READ_YOUR_WRITES_ENABLED", Boolean.toString(peer.equals(ON)));
        try (Peer started = launch("Mooring", environment)) {
            long first = started.await("first counter", PATIENCE);
            long all = started.await("reconciled counter", PATIENCE);
            results.add(peer, Results.WRITES_DRAIN, (double) n * COUNT_TO * 1000 / Math.max(1, all - first));
            results.add(peer, Results.WRITES_DRAIN_CONFLICTS, conflicts() - conflictsBefore);
            results.add(peer, Results.WRITES_DRAIN_REQUESTS, (double) (requests() - requestsBefore) / n);

            long loadConflicts = conflicts();
            long loadRequests = requests();
            marker(namespace);
            started.awaitLatencies("acknowledged", PATIENCE); // forgets what the drain measured (nothing: no change was sent)
            String loaded = exec(List.of(java(), "-cp", classpath(), Load.class.getName(), "updates", kubeconfig.toString(), namespace,
                    Integer.toString(n), Integer.toString(rate), Integer.toString(seconds)), Map.of());
            if (!loaded.contains("failed 0") || Pattern.compile("failed [1-9]").matcher(loaded).find()) {
                throw new IllegalStateException("The update loader failed: " + loaded);
            }
            TimeUnit.SECONDS.sleep(2);
            marker(namespace);
            List<Long> latencies = started.awaitLatencies("acknowledged", PATIENCE);
            if (latencies.size() < Math.min(n, rate * seconds) / 2) {
                throw new IllegalStateException(peer + " saw only " + latencies.size() + " of " + rate * seconds + " changes");
            }
            results.add(peer, Results.WRITES_UPDATE_P50, Results.percentile(latencies, 50));
            results.add(peer, Results.WRITES_UPDATE_P99, Results.percentile(latencies, 99));
            results.add(peer, Results.WRITES_LOAD_CONFLICTS, conflicts() - loadConflicts);
            results.add(peer, Results.WRITES_LOAD_REQUESTS, (double) (requests() - loadRequests) / Math.max(1, rate * seconds));
        }
    }

    /** A namespace of N Ticks at value 0, not yet counted. */
    private void prepare(String namespace) throws Exception {
        http.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + namespace + "\"}}", "application/json");
        ExecutorService creators = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> created = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String name = "t" + i;
                created.add(creators.submit(() -> http.send("POST", "/apis/bench.mooring.dev/v1/namespaces/" + namespace + "/ticks",
                        Map.of(), "{\"apiVersion\":\"bench.mooring.dev/v1\",\"kind\":\"Tick\",\"metadata\":{\"name\":\"" + name + "\"},"
                                + "\"spec\":{\"value\":0}}", "application/json")));
            }
            for (Future<?> future : created) {
                future.get();
            }
        } finally {
            creators.shutdown();
        }
    }

    /** A change of t0 that makes the counter print the change latencies it measured and forget them. */
    private void marker(String namespace) {
        http.send("PATCH", "/apis/bench.mooring.dev/v1/namespaces/" + namespace + "/ticks/t0", Map.of(),
                "{\"spec\":{\"value\":-1,\"sent\":" + -System.currentTimeMillis() + "}}", "application/merge-patch+json");
    }

    /** The updates of Ticks the API server refused with 409 Conflict so far. */
    private long conflicts() throws java.io.IOException {
        return requestCount((verb, resource, code) -> verb.equals("PUT") && resource.equals("ticks") && code.equals("409"));
    }
}
