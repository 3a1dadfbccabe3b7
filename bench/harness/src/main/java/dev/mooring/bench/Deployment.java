package dev.mooring.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What deploying the operator adds to Liberty's idle heap: alternately, Mooring's server with
 * all its features and no application, and the same server running the benchmark's operator
 * (the EAR, no object in its namespaces), each ready and collected; the heaps and, from the
 * last run, the class histograms' difference by owner (both histograms kept in the work folder).
 */
final class Deployment extends Harness {

    Deployment(int n, int runs, int seconds, int rate) {
        super(n, runs, seconds, rate);
    }

    @Override
    void run() throws Exception {
        withCluster(() -> {
            String serverXml = Files.readString(root.resolve("liberty-config/src/main/liberty/config/server.xml"));
            Path featuresUsr = work.resolve("features-usr");
            HeapHistogram without = null;
            HeapHistogram with = null;
            for (int run = 0; run < runs; run++) {
                Idle bare = idleServer(featuresUsr, serverXml, true);
                results.add(NO_APPLICATION, Results.HEAP_IDLE, bare.heap());
                without = HeapHistogram.parse(bare.histogram());
                Files.writeString(work.resolve("histogram-no-application.txt"), bare.histogram());
                try (Peer peer = launch("Mooring", environment(EMPTY, 0, EMPTY, 0))) {
                    Idle deployed = settled(peer, "ready", true);
                    results.add(WITH_APPLICATION, Results.HEAP_IDLE, deployed.heap());
                    with = HeapHistogram.parse(deployed.histogram());
                    Files.writeString(work.resolve("histogram-ear.txt"), deployed.histogram());
                }
                System.out.println("run " + (run + 1) + " of " + runs + " done");
            }
            String table = results.deploymentTable(runs, NO_APPLICATION, WITH_APPLICATION)
                    + "\nThe live objects by owner (class histograms of the last run):\n\n"
                    + without.diffTable(with, NO_APPLICATION, WITH_APPLICATION, 25);
            publish(table, "results-deployment.md");
        });
    }

    private static final String NO_APPLICATION = "all features, no application";
    private static final String WITH_APPLICATION = "the operator's EAR";
}
