package dev.mooring.bench;

import java.util.List;

/**
 * The start-up measures only (launch -> framework start, ready, all N reconciled; the drains):
 * quicker, for trying a change of the start-up. Same cluster, servers and alternation.
 */
final class StartUp extends Harness {

    StartUp(int n, int runs, int seconds, int rate) {
        super(n, runs, seconds, rate);
    }

    @Override
    void run() throws Exception {
        withCluster(() -> {
            for (int run = 0; run < runs; run++) {
                for (String peer : run % 2 == 0 ? List.of("JOSDK", "Mooring") : List.of("Mooring", "JOSDK")) {
                    try (Peer started = launch(peer, environment(TICKS, n, EMPTY, 0))) {
                        recordStart(started);
                    }
                }
            }
            String table = results.startTable(n, runs);
            publish(table, "results-start.md");
        });
    }
}
