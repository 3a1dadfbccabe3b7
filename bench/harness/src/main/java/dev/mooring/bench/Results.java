package dev.mooring.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The values of every run, by measure and peer, and the tables of their medians. */
final class Results {

    static final String DRAIN_FROM_FRAMEWORK = "reconciles/s draining N from framework start";
    static final String DRAIN_FROM_ENGINE = "same, engine only (from the engine's start call)";
    static final String LAUNCH_TO_FRAMEWORK = "process launch -> framework start (ms)";
    static final String LAUNCH_TO_READY = "process launch -> ready (ms)";
    static final String LAUNCH_TO_ALL = "process launch -> all N reconciled (ms)";
    static final String UPDATE_P50 = "update -> reconcile p50 at R changes/s (ms)";
    static final String UPDATE_P99 = "update -> reconcile p99 at R changes/s (ms)";
    static final String HEAP_WITH_TICKS = "heap after GC, N custom resources cached";
    static final String HEAP_WITH_CONFIGMAPS = "heap after GC, N ConfigMaps cached";
    static final String HEAP_IDLE = "heap after GC with 0 objects (MiB)";
    static final String REQUESTS_PER_RECONCILE = "API requests per no-op reconcile";
    static final String ADMISSION_P50 = "admission round trip p50 at R/s over TLS (ms)";
    static final String ADMISSION_P99 = "admission round trip p99 at R/s over TLS (ms)";

    static final String SYNC_SECONDS = "process launch -> all N reconciled (s)";
    static final String DRAIN_SECONDS = "first pass -> all N reconciled (s)";
    static final String DURING_COUNT = "changes sent from the first pass until all N were reconciled (during the drain)";
    static final String DURING_P50 = "update -> reconcile p50 of the changes sent during the drain (ms)";
    static final String DURING_P99 = "update -> reconcile p99 of the changes sent during the drain (ms)";
    static final String AFTER_P50 = "update -> reconcile p50 of the changes sent in the S s after the drain (ms)";
    static final String AFTER_P99 = "update -> reconcile p99 of the changes sent in the S s after the drain (ms)";
    static final String PEAK_HEAP = "peak heap after a GC during the first sync (MiB)";
    static final String STEADY_HEAP = "steady heap after full GC, all cached (MiB)";
    static final String PEAK_TO_STEADY = "first-sync peak / steady heap";
    static final String WAITING_HEAP = "heap after full GC, all cached and waiting for their first pass (MiB)";
    static final String WAITING_TO_STEADY = "all waiting / steady heap";
    static final String COMMITTED_HEAP = "peak heap committed during the first sync (MiB)";
    static final String GC_PAUSES = "GC pauses during the first sync (ms)";
    static final String FULL_GCS = "full GCs during the first sync";
    static final String PEAK_RSS = "peak RSS up to the end of the first sync (MiB)";
    static final String STEADY_RSS = "RSS, all cached (MiB)";
    static final String FAILOVER_FIRST = "leader kill -9 -> first pass of the new leader (ms)";
    static final String FAILOVER_ALL = "leader kill -9 -> all N passed by the new leader (ms)";
    static final String FAILOVER_LISTS = "LIST requests of the kind from the kill on";
    static final String WRITES_DRAIN = "guarded updates/s draining N x K from the first pass";
    static final String WRITES_DRAIN_CONFLICTS = "409 Conflict answers during the drain";
    static final String WRITES_DRAIN_REQUESTS = "API requests per object during the drain (K updates needed)";
    static final String WRITES_UPDATE_P50 = "change -> first pass that sees it, p50 at R changes/s (ms)";
    static final String WRITES_UPDATE_P99 = "change -> first pass that sees it, p99 at R changes/s (ms)";
    static final String WRITES_LOAD_CONFLICTS = "409 Conflict answers during the load";
    static final String WRITES_LOAD_REQUESTS = "API requests per change during the load (its patch and 1 update needed)";
    static final String OWNED_START = "process launch -> all N owners reconciled (ms)";
    static final String OWNED_HEAP = "heap after GC, all cached (MiB)";
    private static final String OWNED_ABOVE_IDLE = "heap above idle, all cached (MiB)";
    private static final String OWNED_OBJECTS = "objects cached (owners and ConfigMaps)";
    private static final String OWNED_PER_OBJECT = "heap above idle per cached object (B)";
    private static final String OWNED_PER_OWNER = "heap above idle per owner (B)";
    private static final String PER_OBJECT = "heap per cached object (B)";

    private final Map<String, Map<String, List<Double>>> values = new LinkedHashMap<>();

    void add(String peer, String measure, double value) {
        values.computeIfAbsent(measure, m -> new LinkedHashMap<>()).computeIfAbsent(peer, p -> new ArrayList<>()).add(value);
    }

    /** Nearest-rank percentile of a non-empty list. */
    static double percentile(List<Long> values, int percent) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values for a percentile");
        }
        List<Long> sorted = values.stream().sorted().toList();
        int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    /** Median of the values; of an even count, the mean of the middle two. */
    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /** The measure of the waiting reconciler with this many workers (0: the peer's default). */
    static String waiting(int workers) {
        return "waiting reconciler, " + (workers == 0 ? "default threads" : workers + " workers");
    }

    /** Reconciles/s of the waiting reconciler: JOSDK's default against each worker count of Mooring. */
    String waitingTable(int objects, int waitMillis, List<Integer> workers) {
        StringBuilder text = new StringBuilder();
        text.append("A reconciler that waits ").append(waitMillis).append(" ms a pass (as on I/O), ").append(objects)
                .append(" objects, reconciles/s from the engine's start:\n\n");
        text.append("| Mooring workers | JOSDK (its default: 50 threads) | Mooring | Mooring/JOSDK |\n|---|---|---|---|\n");
        for (int count : workers) {
            Map<String, List<Double>> byPeer = values.getOrDefault(waiting(count), Map.of());
            List<Double> base = values.getOrDefault(waiting(0), Map.of()).getOrDefault("JOSDK", List.of());
            List<Double> ours = byPeer.getOrDefault("Mooring", List.of());
            text.append("| ").append(count).append(" | ").append(cell(base)).append(" | ").append(cell(ours)).append(" | ")
                    .append(ratio(base, ours)).append(" |\n");
        }
        if (text.toString().contains("| - |")) {
            throw new IllegalStateException("Some measure has no value:\n" + text);
        }
        return text.toString();
    }

    /** The measures so far, unchecked. */
    String draft(int n, int rate) {
        StringBuilder text = new StringBuilder();
        values.forEach((measure, byPeer) -> text.append(measure.replace(" N ", " " + n + " ").replace(" R", " " + rate)).append(": ")
                .append(byPeer).append('\n'));
        return text.toString();
    }

    String table(int n, int runs, int seconds, int rate) {
        StringBuilder text = new StringBuilder();
        text.append("N = ").append(n).append(" objects, ").append(runs).append(" runs, load ").append(rate)
                .append("/s for ").append(seconds).append(" s; median (min-max)\n\n");
        text.append("| measure | JOSDK | Mooring | Mooring/JOSDK |\n|---|---|---|---|\n");
        for (String measure : List.of(DRAIN_FROM_FRAMEWORK, DRAIN_FROM_ENGINE, LAUNCH_TO_FRAMEWORK, LAUNCH_TO_READY, LAUNCH_TO_ALL,
                UPDATE_P50, UPDATE_P99)) {
            row(text, measure, "JOSDK", "Mooring", 1);
        }
        perObject(text, "heap per cached custom resource (B)", HEAP_WITH_TICKS, n);
        perObject(text, "heap per cached 1 KiB ConfigMap (B)", HEAP_WITH_CONFIGMAPS, n);
        row(text, HEAP_IDLE, "JOSDK", "Mooring", 1024 * 1024);
        row(text, REQUESTS_PER_RECONCILE, "JOSDK", "Mooring", 1);
        text.append("\n| measure | bare Jakarta REST echo | Mooring validator | Mooring/echo |\n|---|---|---|---|\n");
        row(text, ADMISSION_P50, "echo", "Mooring", 1);
        row(text, ADMISSION_P99, "echo", "Mooring", 1);
        String table = text.toString().replace(" N ", " " + n + " ").replace(" R changes/s", " " + rate + " changes/s")
                .replace(" S s ", " " + seconds + " s ")
                .replace(" R/s", " " + rate + "/s");
        if (table.contains("| - |")) {
            throw new IllegalStateException("Some measure has no value:\n" + table);
        }
        return table;
    }

    /**
     * The owned-children benchmark: per peer (in {@code peers} order, each with the number of
     * objects it caches), the start-up, the heap, and the heap above the idle one of its JVM
     * ({@code JOSDK} or {@code Mooring}) per cached object and per owner.
     */
    String ownedTable(int n, int runs, Map<String, Double> cached, String... peers) {
        for (String peer : peers) {
            String jvm = peer.startsWith("JOSDK") ? "JOSDK" : "Mooring";
            List<Double> full = values.getOrDefault(OWNED_HEAP, Map.of()).getOrDefault(peer, List.of());
            List<Double> empty = values.getOrDefault(HEAP_IDLE, Map.of()).getOrDefault(jvm, List.of());
            for (int i = 0; i < Math.min(full.size(), empty.size()); i++) {
                double above = full.get(i) - empty.get(i);
                add(peer, OWNED_ABOVE_IDLE, above);
                add(peer, OWNED_OBJECTS, cached.get(peer));
                add(peer, OWNED_PER_OBJECT, above / cached.get(peer));
                add(peer, OWNED_PER_OWNER, above / Math.max(1, n));
            }
        }
        StringBuilder text = new StringBuilder();
        text.append("N = ").append(n).append(" owners, each owning one labelled 1 KiB ConfigMap, beside ").append(10 * n)
                .append(" unrelated ConfigMaps of 1 KiB in their namespace; ").append(runs).append(" runs; median (min-max)\n\n");
        text.append("| measure |");
        for (String peer : peers) {
            text.append(' ').append(peer).append(" |");
        }
        text.append(' ').append(peers[peers.length - 1]).append(" / ").append(peers[0]).append(" |\n|---|")
                .append("---|".repeat(peers.length + 1)).append('\n');
        for (String measure : List.of(OWNED_START, OWNED_HEAP, OWNED_ABOVE_IDLE, OWNED_OBJECTS, OWNED_PER_OBJECT, OWNED_PER_OWNER)) {
            double unit = measure.endsWith("(MiB)") ? 1024 * 1024 : 1;
            text.append("| ").append(measure).append(" |");
            for (String peer : peers) {
                text.append(' ').append(cell(scaled(values.getOrDefault(measure, Map.of()).get(peer), unit))).append(" |");
            }
            Map<String, List<Double>> byPeer = values.getOrDefault(measure, Map.of());
            text.append(' ').append(ratio(scaled(byPeer.get(peers[0]), unit), scaled(byPeer.get(peers[peers.length - 1]), unit)))
                    .append(" |\n");
        }
        String table = text.toString().replace(" N ", " " + n + " ");
        if (table.contains("| - |")) {
            throw new IllegalStateException("Some measure has no value:\n" + table);
        }
        return table;
    }

    /** Read-your-writes on ({@code on}) and off ({@code off}), side by side, with the ratio on / off. */
    String writesTable(int n, int runs, int seconds, int rate, int countTo, String on, String off) {
        StringBuilder text = new StringBuilder();
        text.append("N = ").append(n).append(" Ticks, each counted to K = ").append(countTo).append(" by guarded updates, the next pass at once;")
                .append(" then ").append(rate).append(" changes/s for ").append(seconds).append(" s, each acknowledged by one; ").append(runs)
                .append(" runs; median (min-max)\n\n");
        text.append("| measure | ").append(off).append(" | ").append(on).append(" | on / off |\n|---|---|---|---|\n");
        for (String measure : List.of(WRITES_DRAIN, WRITES_DRAIN_CONFLICTS, WRITES_DRAIN_REQUESTS, WRITES_UPDATE_P50, WRITES_UPDATE_P99,
                WRITES_LOAD_CONFLICTS, WRITES_LOAD_REQUESTS)) {
            Map<String, List<Double>> byPeer = values.getOrDefault(measure, Map.of());
            if (byPeer.getOrDefault(on, List.of()).isEmpty() || byPeer.getOrDefault(off, List.of()).isEmpty()) {
                throw new IllegalStateException("'" + measure + "' has no value:\n" + text);
            }
            row(text, measure, off, on, 1);
        }
        return text.toString().replace(" N ", " " + n + " ").replace(" R ", " " + rate + " ");
    }

    /** The start-up measures only. */
    String startTable(int n, int runs) {
        StringBuilder text = new StringBuilder();
        text.append("N = ").append(n).append(" objects, ").append(runs).append(" runs, start-up only; median (min-max)\n\n");
        text.append("| measure | JOSDK | Mooring | Mooring/JOSDK |\n|---|---|---|---|\n");
        for (String measure : List.of(DRAIN_FROM_FRAMEWORK, DRAIN_FROM_ENGINE, LAUNCH_TO_FRAMEWORK, LAUNCH_TO_READY, LAUNCH_TO_ALL)) {
            row(text, measure, "JOSDK", "Mooring", 1);
        }
        String table = text.toString().replace(" N ", " " + n + " ");
        if (table.contains("| - |")) {
            throw new IllegalStateException("Some measure has no value:\n" + table);
        }
        return table;
    }

    /**
     * The start-up measures and the idle heap per JDK ({@code versions}, the first the reference):
     * the two peers side by side on each, then each peer on each JDK against the first.
     */
    String jdksTable(int n, int runs, List<String> versions) {
        StringBuilder text = new StringBuilder();
        text.append("N = ").append(n).append(" objects, ").append(runs).append(" runs, start-up and idle heap per JDK; median (min-max)\n");
        List<String> measures = List.of(LAUNCH_TO_FRAMEWORK, LAUNCH_TO_READY, LAUNCH_TO_ALL, DRAIN_FROM_FRAMEWORK, HEAP_IDLE);
        for (String version : versions) {
            text.append("\n| measure, Java ").append(version).append(" | JOSDK | Mooring | Mooring/JOSDK |\n|---|---|---|---|\n");
            for (String measure : measures) {
                row(text, measure, "JOSDK " + version, "Mooring " + version, measure.equals(HEAP_IDLE) ? 1024 * 1024 : 1);
            }
        }
        String reference = versions.get(0);
        for (String version : versions.subList(1, versions.size())) {
            for (String peer : List.of("Mooring", "JOSDK")) {
                text.append("\n| measure, ").append(peer).append(" | Java ").append(reference).append(" | Java ").append(version)
                        .append(" | ").append(version).append('/').append(reference).append(" |\n|---|---|---|---|\n");
                for (String measure : measures) {
                    row(text, measure, peer + " " + reference, peer + " " + version, measure.equals(HEAP_IDLE) ? 1024 * 1024 : 1);
                }
            }
        }
        String table = text.toString().replace(" N ", " " + n + " ");
        if (table.contains("| - |")) {
            throw new IllegalStateException("Some measure has no value:\n" + table);
        }
        return table;
    }

    /**
     * The idle heap of Liberty servers per feature configuration ({@code configurations}, in
     * order; the first is the kernel alone): the median, and its difference to the kernel and
     * to all features.
     */
    String featuresTable(int runs, List<String> configurations) {
        StringBuilder text = new StringBuilder();
        text.append(runs).append(" runs; heap after GC of a ready server with no application; median (min-max)\n\n");
        text.append("| features | heap (MiB) | above the kernel (MiB) | against all (MiB) |\n|---|---|---|---|\n");
        double mebibyte = 1024 * 1024;
        Map<String, List<Double>> byConfiguration = values.getOrDefault(HEAP_IDLE, Map.of());
        double kernel = median(byConfiguration.getOrDefault(configurations.get(0), List.of(0.0))) / mebibyte;
        double all = median(byConfiguration.getOrDefault(configurations.get(1), List.of(0.0))) / mebibyte;
        for (String configuration : configurations) {
            List<Double> heap = scaled(byConfiguration.get(configuration), mebibyte);
            if (heap.isEmpty()) {
                throw new IllegalStateException("No heap measured for " + configuration);
            }
            double median = median(heap);
            text.append("| ").append(configuration).append(" | ").append(cell(heap)).append(" | ")
                    .append(String.format(java.util.Locale.ROOT, "%+.1f", median - kernel)).append(" | ")
                    .append(String.format(java.util.Locale.ROOT, "%+.1f", median - all)).append(" |\n");
        }
        return text.toString();
    }

    /** The idle heap of a server {@code without} the application and {@code with} it, and the difference of the medians. */
    String deploymentTable(int runs, String without, String with) {
        double mebibyte = 1024 * 1024;
        Map<String, List<Double>> byServer = values.getOrDefault(HEAP_IDLE, Map.of());
        StringBuilder text = new StringBuilder(runs + " runs; heap after GC of a ready server; median (min-max)\n\n| server | heap (MiB) |\n|---|---|\n");
        for (String server : List.of(without, with)) {
            List<Double> heap = scaled(byServer.get(server), mebibyte);
            if (heap.isEmpty()) {
                throw new IllegalStateException("No heap measured for " + server);
            }
            text.append("| ").append(server).append(" | ").append(cell(heap)).append(" |\n");
        }
        double added = median(scaled(byServer.get(with), mebibyte)) - median(scaled(byServer.get(without), mebibyte));
        return text.append(String.format(java.util.Locale.ROOT, "| added by the application | %+.1f |%n", added)).toString();
    }

    /** A measure of the scale benchmark, for one kind ({@code tick}, {@code configmap}). */
    static String scale(String kind, String measure) {
        return kind + ": " + measure;
    }

    /**
     * The first syncs of N objects, per kind: time, latencies of fresh changes, heap peak against
     * steady, GC, RSS, and the heap per object (steady minus idle, over N) against {@code wire},
     * the bytes of one object on the wire, by kind.
     */
    String scaleTable(int n, int runs, int seconds, int rate, Map<String, Double> wire) {
        StringBuilder text = new StringBuilder();
        text.append("N = ").append(n).append(" objects of each kind, ").append(runs).append(" runs, changes at ").append(rate)
                .append("/s to the custom resources from their first pass until ").append(seconds)
                .append(" s after all are reconciled; median (min-max)\n");
        double mebibyte = 1024 * 1024;
        for (String kind : List.of("tick", "configmap")) {
            text.append("\n| ").append(kind.equals("tick") ? "N custom resources" : "N ConfigMaps of 1 KiB")
                    .append(" | JOSDK | Mooring | Mooring/JOSDK |\n|---|---|---|---|\n");
            for (String measure : List.of(SYNC_SECONDS, DRAIN_SECONDS, DURING_COUNT, DURING_P50, DURING_P99, AFTER_P50, AFTER_P99)) {
                // no change may leave while a small drain lasts (the smoke run): those percentiles are then left out
                if (values.getOrDefault(scale(kind, measure), Map.of()).size() == 2) {
                    row(text, scale(kind, measure), "JOSDK", "Mooring", 1);
                }
            }
            for (String measure : List.of(PEAK_HEAP, STEADY_HEAP)) {
                row(text, scale(kind, measure), "JOSDK", "Mooring", mebibyte);
            }
            row(text, scale(kind, PEAK_TO_STEADY), "JOSDK", "Mooring", 1);
            row(text, scale(kind, WAITING_HEAP), "JOSDK", "Mooring", mebibyte);
            row(text, scale(kind, WAITING_TO_STEADY), "JOSDK", "Mooring", 1);
            row(text, scale(kind, COMMITTED_HEAP), "JOSDK", "Mooring", mebibyte);
            row(text, scale(kind, GC_PAUSES), "JOSDK", "Mooring", 1);
            row(text, scale(kind, FULL_GCS), "JOSDK", "Mooring", 1);
            row(text, scale(kind, PEAK_RSS), "JOSDK", "Mooring", mebibyte);
            row(text, scale(kind, STEADY_RSS), "JOSDK", "Mooring", mebibyte);
            Map<String, List<Double>> steady = values.getOrDefault(scale(kind, STEADY_HEAP), Map.of());
            Map<String, List<Double>> idle = values.getOrDefault(HEAP_IDLE, Map.of());
            for (String peer : List.of("JOSDK", "Mooring")) {
                List<Double> full = steady.getOrDefault(peer, List.of());
                List<Double> empty = idle.getOrDefault(peer, List.of());
                for (int i = 0; i < Math.min(full.size(), empty.size()); i++) {
                    add(peer, scale(kind, PER_OBJECT), (full.get(i) - empty.get(i)) / Math.max(1, n));
                }
            }
            row(text, scale(kind, PER_OBJECT), "JOSDK", "Mooring", 1);
            text.append("| one object's JSON on the wire (B) | ").append(format(wire.get(kind))).append(" | ")
                    .append(format(wire.get(kind))).append(" | = |\n");
        }
        String table = text.toString().replace(" N ", " " + n + " ").replace(" R changes/s", " " + rate + " changes/s")
                .replace(" S s ", " " + seconds + " s ")
                .replaceAll("\\| (tick|configmap): ", "| ");
        if (table.contains("| - |")) {
            throw new IllegalStateException("Some measure has no value:\n" + table);
        }
        return table;
    }

    /** The sharding table: per replica count, the seconds from the first pass of a change to all passed, the rate, the speed-up. */
    static String shardsTable(int n, int runs, int shards, Map<Integer, List<Double>> seconds, Map<Integer, List<Double>> busy) {
        StringBuilder table = new StringBuilder("N = " + n + " custom resources, each passed once on the replicas' initial lists, " + shards + " shards, 4 workers per"
                + " replica, 10 ms per pass, " + runs + " runs; median (min-max)\n\n"
                + "| replicas | gate open -> all " + n + " passed (s) | passes per second | speed-up over 1 replica | the machine's CPU busy meanwhile (%) |\n"
                + "|---|---|---|---|---|\n");
        double one = median(seconds.get(1));
        seconds.forEach((replicas, measured) -> {
            double median = median(measured);
            table.append("| ").append(replicas).append(" | ").append(String.format(java.util.Locale.ROOT, "%.2f (%.2f-%.2f)", median,
                    measured.stream().mapToDouble(Double::doubleValue).min().orElse(0),
                    measured.stream().mapToDouble(Double::doubleValue).max().orElse(0)))
                    .append(" | ").append(String.format(java.util.Locale.ROOT, "%.0f", n / median))
                    .append(" | ").append(String.format(java.util.Locale.ROOT, "%.2fx", one / median))
                    .append(" | ").append(String.format(java.util.Locale.ROOT, "%.0f", median(busy.getOrDefault(replicas, List.of(0.0))))).append(" |\n");
        });
        return table.toString();
    }

    String failoverTable(int n, int runs) {
        StringBuilder text = new StringBuilder();
        text.append("N = ").append(n).append(" custom resources, ").append(runs)
                .append(" runs, Lease duration 15 s, renew deadline 10 s, retry period 2 s; median (min-max)\n\n");
        text.append("| measure | JOSDK | Mooring | Mooring/JOSDK |\n|---|---|---|---|\n");
        for (String measure : List.of(FAILOVER_FIRST, FAILOVER_ALL, FAILOVER_LISTS)) {
            row(text, measure, "JOSDK", "Mooring", 1);
        }
        String table = text.toString().replace(" N ", " " + n + " ");
        if (table.contains("| - |")) {
            throw new IllegalStateException("Some measure has no value:\n" + table);
        }
        return table;
    }

    /** Mooring as shipped against {@code traced} (MicroProfile Telemetry added, its SDK off). */
    String tracesTable(int n, int runs, String traced) {
        StringBuilder text = new StringBuilder();
        text.append("N = ").append(n).append(" objects, ").append(runs).append(" runs; median (min-max)\n\n");
        text.append("| measure | Mooring | ").append(traced).append(" | ").append(traced).append("/Mooring |\n|---|---|---|---|\n");
        for (String measure : List.of(DRAIN_FROM_ENGINE, LAUNCH_TO_FRAMEWORK, LAUNCH_TO_READY, LAUNCH_TO_ALL)) {
            row(text, measure, "Mooring", traced, 1);
        }
        row(text, HEAP_WITH_TICKS, "Mooring", traced, 1024 * 1024);
        row(text, HEAP_IDLE, "Mooring", traced, 1024 * 1024);
        String table = text.toString().replace(" N ", " " + n + " ").replace("N custom resources cached", n + " custom resources cached (MiB)");
        if (table.contains("| - |")) {
            throw new IllegalStateException("Some measure has no value:\n" + table);
        }
        return table;
    }

    private void row(StringBuilder text, String measure, String peer, String mooring, double unit) {
        Map<String, List<Double>> byPeer = values.getOrDefault(measure, Map.of());
        List<Double> base = scaled(byPeer.get(peer), unit);
        List<Double> ours = scaled(byPeer.get(mooring), unit);
        text.append("| ").append(measure).append(" | ").append(cell(base)).append(" | ").append(cell(ours)).append(" | ")
                .append(ratio(base, ours)).append(" |\n");
    }

    /** (heap with N - heap with 0) / N, run by run. */
    private void perObject(StringBuilder text, String label, String measure, int n) {
        Map<String, List<Double>> withObjects = values.getOrDefault(measure, Map.of());
        Map<String, List<Double>> idle = values.getOrDefault(HEAP_IDLE, Map.of());
        for (String peer : List.of("JOSDK", "Mooring")) {
            List<Double> full = withObjects.getOrDefault(peer, List.of());
            List<Double> empty = idle.getOrDefault(peer, List.of());
            for (int i = 0; i < Math.min(full.size(), empty.size()); i++) {
                add(peer, label, (full.get(i) - empty.get(i)) / Math.max(1, n));
            }
        }
        row(text, label, "JOSDK", "Mooring", 1);
    }

    private static List<Double> scaled(List<Double> values, double unit) {
        return values == null ? List.of() : values.stream().map(value -> value / unit).toList();
    }

    private static String cell(List<Double> values) {
        if (values.isEmpty()) {
            return "-";
        }
        double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return format(median(values)) + " (" + format(min) + "-" + format(max) + ")";
    }

    private static String ratio(List<Double> base, List<Double> ours) {
        if (base.isEmpty() || ours.isEmpty()) {
            return "-"; // a value is missing: the tables refuse it
        }
        if (median(base) == 0) {
            return median(ours) == 0 ? "=" : "from 0";
        }
        return String.format("%.2fx", median(ours) / median(base));
    }

    private static String format(double value) {
        if (value == Math.rint(value) && Math.abs(value) >= 10) {
            return Long.toString((long) value);
        }
        return Math.abs(value) >= 100 ? Long.toString(Math.round(value)) : String.format("%.2f", value);
    }
}
