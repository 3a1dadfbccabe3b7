package dev.mooring.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What tracing costs when it is off: Mooring as shipped (no telemetry feature: the engine's
 * spans are Tracing.NONE) against the same server with mpTelemetry-2.0 added and its SDK
 * disabled, alternating: start-up, the drain of N, the heap with N cached and idle.
 */
final class Traces extends Harness {

    Traces(int n, int runs, int seconds, int rate) {
        super(n, runs, seconds, rate);
    }

    @Override
    void run() throws Exception {
        telemetry = true;
        withCluster(() -> {
            for (int run = 0; run < runs; run++) {
                for (String peer : run % 2 == 0 ? List.of("Mooring", TELEMETRY) : List.of(TELEMETRY, "Mooring")) {
                    try (Peer started = launch(peer, environment(TICKS, n, EMPTY, 0))) {
                        recordStart(started);
                        TimeUnit.SECONDS.sleep(1);
                        results.add(peer, Results.HEAP_WITH_TICKS, started.heapAfterGc());
                    }
                    idle(peer);
                }
            }
            String table = results.tracesTable(n, runs, TELEMETRY);
            publish(table, "results-traces.md");
        });
    }
}
