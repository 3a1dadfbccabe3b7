package dev.mooring.bench;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * An operator whose N owners (Ticks) each own one labelled ConfigMap, in a namespace where 10 N
 * unrelated ConfigMaps live: the start-up and the heap of Mooring without and with its owned label
 * selector, side by side with the Java Operator SDK with the same selector on its event source.
 * Without a selector the owned kind's cache holds all 11 N ConfigMaps; with one, the N children.
 */
final class OwnedChildren extends Harness {

    static final String OWNED = "bench-owned";
    static final String LABEL = "bench.mooring.dev/owned";
    /** The peers, as {@link Results} names them: the launched peer and whether it has the selector. */
    static final String JOSDK_SELECTOR = "JOSDK, label selector";
    static final String MOORING_ALL = "Mooring, no selector";
    static final String MOORING_SELECTOR = "Mooring, ownsLabelSelector";
    private static final List<String> PEERS = List.of(JOSDK_SELECTOR, MOORING_ALL, MOORING_SELECTOR);

    OwnedChildren(int n, int runs, int seconds, int rate) {
        super(n, runs, seconds, rate);
        ticksOnly = true;
    }

    @Override
    void run() throws Exception {
        withCluster(() -> {
            prepareOwned();
            for (int run = 0; run < runs; run++) {
                List<String> order = new ArrayList<>(PEERS);
                java.util.Collections.rotate(order, run);
                idle("JOSDK");
                idle("Mooring");
                for (String peer : order) {
                    try (Peer started = launch(peer.startsWith("JOSDK") ? "JOSDK" : "Mooring", ownedEnvironment(!peer.equals(MOORING_ALL)))) {
                        results.add(peer, Results.OWNED_START, started.await("reconciled owner", PATIENCE));
                        results.add(peer, Results.OWNED_HEAP, settled(started, "reconciled owner", false).heap());
                    }
                }
                System.out.println("run " + (run + 1) + " of " + runs + " done");
            }
            String table = results.ownedTable(n, runs, Map.of(JOSDK_SELECTOR, 2.0 * n, MOORING_ALL, 12.0 * n, MOORING_SELECTOR, 2.0 * n),
                    JOSDK_SELECTOR, MOORING_ALL, MOORING_SELECTOR);
            publish(table, "results-owned.md");
        });
    }

    /** The owners' namespace: N Ticks, a labelled ConfigMap of 1 KiB owned by each, and 10 N unrelated ones of the same size. */
    private void prepareOwned() throws Exception {
        http.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + OWNED + "\"}}", "application/json");
        String kibibyte = "x".repeat(1024);
        String configMaps = "/api/v1/namespaces/" + OWNED + "/configmaps";
        ExecutorService creators = Executors.newFixedThreadPool(8);
        try {
            List<Future<JsonObject>> owners = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String name = "o" + i;
                owners.add(creators.submit(() -> http.send("POST", "/apis/bench.mooring.dev/v1/namespaces/" + OWNED + "/ticks", Map.of(),
                        "{\"apiVersion\":\"bench.mooring.dev/v1\",\"kind\":\"Tick\",\"metadata\":{\"name\":\"" + name + "\"},"
                                + "\"spec\":{\"value\":0}}", "application/json")));
            }
            List<Future<?>> created = new ArrayList<>();
            for (Future<JsonObject> future : owners) {
                JsonObject metadata = future.get().getAsJsonObject("metadata");
                String owner = metadata.get("name").getAsString();
                String uid = metadata.get("uid").getAsString();
                created.add(creators.submit(() -> http.send("POST", configMaps, Map.of(), "{\"metadata\":{\"name\":\"" + owner
                        + "-child\",\"labels\":{\"" + LABEL + "\":\"true\"},\"ownerReferences\":[{\"apiVersion\":\"bench.mooring.dev/v1\","
                        + "\"kind\":\"Tick\",\"name\":\"" + owner + "\",\"uid\":\"" + uid + "\",\"controller\":true}]},"
                        + "\"data\":{\"payload\":\"" + kibibyte + "\"}}", "application/json")));
            }
            for (int i = 0; i < 10 * n; i++) {
                String name = "u" + i;
                created.add(creators.submit(() -> http.send("POST", configMaps, Map.of(), "{\"metadata\":{\"name\":\"" + name + "\"},"
                        + "\"data\":{\"payload\":\"" + kibibyte + "\"}}", "application/json")));
            }
            for (Future<?> future : created) {
                future.get();
            }
        } finally {
            creators.shutdown();
        }
    }

    /** The owners' controller on the owned namespace, the others on the empty one; with {@code selector}, the children's label. */
    private Map<String, String> ownedEnvironment(boolean selector) {
        Map<String, String> environment = environment(EMPTY, 0, EMPTY, 0);
        environment.put("MOORING_CONTROLLER_OWNERS_NAMESPACE", OWNED);
        environment.put("BENCH_OWNERS", Integer.toString(n));
        environment.put("MOORING_CONTROLLER_OWNERS_SYNC_TIMEOUT", "10m");
        if (selector) {
            environment.put("MOORING_CONTROLLER_OWNERS_OWNS_LABEL_SELECTOR", LABEL + "=true");
        }
        return environment;
    }
}
