package dev.mooring.bench;

import dev.mooring.manifests.Installer;
import dev.mooring.runtime.internal.KubeHttp;
import io.kubernetes.client.util.Config;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Mooring and the Java Operator SDK side by side on one local API server: N objects of a trivial
 * kind, a no-op reconciler in each, fresh processes, the two interleaved (the order alternating
 * per run). Work in progress: measures launch → framework start → all N reconciled.
 *
 * <p>Arguments: {@code N} (5000) and {@code runs} (3).
 */
public final class Bench {

    private static final String NAMESPACE = "bench";

    private final Path root = Path.of(System.getProperty("bench.root")).toAbsolutePath().normalize();
    private final Path work = root.resolve("bench/harness/target/bench");
    private final int n;
    private final int runs;

    private Bench(int n, int runs) {
        this.n = n;
        this.runs = runs;
    }

    public static void main(String[] args) throws Exception {
        new Bench(args.length > 0 ? Integer.parseInt(args[0]) : 5000, args.length > 1 ? Integer.parseInt(args[1]) : 3).run();
    }

    private void run() throws Exception {
        Files.createDirectories(work);
        Path apiserver = work.resolve("apiserver");
        exec(List.of("bash", root.resolve("local-apiserver/local-apiserver.sh").toString(), "up", apiserver.toString()), Map.of());
        try {
            Path kubeconfig = apiserver.resolve("admin.kubeconfig");
            KubeHttp http = new KubeHttp(Config.fromConfig(kubeconfig.toString()));
            new Installer(http, new Installer.Options(Duration.ofMinutes(2), true, true), line -> { })
                    .installNamespaceAndCrds(NAMESPACE, Installer.read(root.resolve("bench/tick-mooring/target/manifests")));
            for (int i = 0; i < n; i++) {
                http.send("POST", "/apis/bench.mooring.dev/v1/namespaces/" + NAMESPACE + "/ticks", Map.of(),
                        "{\"apiVersion\":\"bench.mooring.dev/v1\",\"kind\":\"Tick\",\"metadata\":{\"name\":\"t" + i + "\"},"
                                + "\"spec\":{\"value\":" + i + "}}", "application/json");
            }
            Path usr = work.resolve("usr");
            int httpPort;
            int https;
            try (java.net.ServerSocket a = new java.net.ServerSocket(0); java.net.ServerSocket b = new java.net.ServerSocket(0)) {
                httpPort = a.getLocalPort();
                https = b.getLocalPort();
            }
            exec(List.of("bash", root.resolve("scripts/liberty.sh").toString(), "server", usr.toString(), "bench", Integer.toString(httpPort),
                    Integer.toString(https), "http.host=127.0.0.1"), Map.of());
            Files.copy(root.resolve("bench/tick-mooring/target/tick-mooring.ear"), usr.resolve("servers/bench/dropins/tick-mooring.ear"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Map<String, String> environment = Map.of("KUBECONFIG", kubeconfig.toString(), "BENCH_N", Integer.toString(n),
                    "MOORING_NAMESPACE", NAMESPACE, "WLP_USER_DIR", usr.toString());
            mooring(environment); // warm-up: Liberty's caches, as an image's build prepares them
            Map<String, List<Timing>> timings = new LinkedHashMap<>();
            timings.put("JOSDK", new ArrayList<>());
            timings.put("Mooring", new ArrayList<>());
            for (int run = 0; run < runs; run++) {
                List<String> order = run % 2 == 0 ? List.of("JOSDK", "Mooring") : List.of("Mooring", "JOSDK");
                for (String framework : order) {
                    Timing timing = framework.equals("JOSDK") ? josdk(environment) : mooring(environment);
                    timings.get(framework).add(timing);
                    System.out.println("run " + (run + 1) + " " + framework + ": " + timing);
                }
            }
            System.out.println();
            System.out.println("| measure (median, min-max; " + n + " objects, " + runs + " runs) | JOSDK | Mooring | Mooring/JOSDK |");
            System.out.println("|---|---|---|---|");
            row("process launch -> all reconciled (ms)", timings, Timing::launchToAll);
            row("process launch -> framework start (ms)", timings, Timing::launchToStart);
            row("reconciles/s from framework start", timings, timing -> Math.round(n * 1000.0 / (timing.launchToAll() - timing.launchToStart())));
        } finally {
            exec(List.of("bash", root.resolve("local-apiserver/local-apiserver.sh").toString(), "down", apiserver.toString()), Map.of());
        }
    }

    /** One run's moments, in ms after the process was launched. */
    record Timing(long launchToStart, long launchToAll) {
        @Override
        public String toString() {
            return "framework start after " + launchToStart + " ms, all reconciled after " + launchToAll + " ms";
        }
    }

    private static void row(String measure, Map<String, List<Timing>> timings, java.util.function.ToLongFunction<Timing> value) {
        List<Long> josdk = timings.get("JOSDK").stream().map(value::applyAsLong).toList();
        List<Long> mooring = timings.get("Mooring").stream().map(value::applyAsLong).toList();
        System.out.printf("| %s | %d (%d-%d) | %d (%d-%d) | %.2fx |%n", measure, median(josdk), min(josdk), max(josdk), median(mooring),
                min(mooring), max(mooring), (double) median(mooring) / median(josdk));
    }

    private Timing josdk(Map<String, String> environment) throws Exception {
        Path peer = root.resolve("bench/tick-josdk/target");
        String classpath = peer.resolve("classes") + ":" + Files.readString(peer.resolve("classpath.txt")).trim();
        return untilAllReconciled(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
                "dev.mooring.bench.josdk.Main"), environment, null);
    }

    private Timing mooring(Map<String, String> environment) throws Exception {
        Path server = Path.of(exec(List.of("bash", root.resolve("scripts/liberty.sh").toString(), "home"), Map.of()).trim(), "bin/server");
        return untilAllReconciled(List.of(server.toString(), "run", "bench"), environment, List.of(server.toString(), "stop", "bench"));
    }

    /** Starts the process and reads its output until the reconciler's line; answers the moments after launch. */
    private Timing untilAllReconciled(List<String> command, Map<String, String> environment, List<String> stop) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        long launched = System.currentTimeMillis();
        Process process = builder.start();
        long start = -1;
        try (BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.contains("BENCH framework start at ")) {
                    start = Long.parseLong(line.substring(line.indexOf("BENCH framework start at ") + 25).trim()) - launched;
                }
                int at = line.indexOf("BENCH reconciled " + n + " at ");
                if (at >= 0) {
                    return new Timing(start, Long.parseLong(line.substring(at + ("BENCH reconciled " + n + " at ").length()).trim())
                            - launched);
                }
            }
            throw new IllegalStateException(command.get(0) + " ended before reconciling " + n + " objects");
        } finally {
            if (stop != null) {
                exec(stop, environment);
            }
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private static String exec(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
        }
        return output;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private static long min(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).min().orElse(0);
    }

    private static long max(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).max().orElse(0);
    }

}
