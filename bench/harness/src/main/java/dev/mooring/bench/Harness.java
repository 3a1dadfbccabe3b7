package dev.mooring.bench;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.manifests.Installer;
import dev.mooring.stack.ApiServerLauncher;
import dev.mooring.stack.FreePorts;
import dev.mooring.stack.LibertyRuntime;
import dev.mooring.stack.LibertyServer;
import dev.mooring.stack.RunningApiServer;
import dev.mooring.stack.StackCache;
import io.kubernetes.client.util.Config;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What every benchmark shares: Mooring and the Java Operator SDK side by side on one local API
 * server, a trivial kind and no-op reconcilers in each, fresh processes; the cluster with its
 * objects and the Liberty servers ({@link #withCluster}), launching the peers, the measures several
 * benchmarks take (start-up, idle heap), the API server's request counts, the tables' file. Each
 * benchmark is a subclass ({@link Bench} names them); what is measured, and from when, is written
 * in {@code docs/benchmarks.md}.
 */
abstract class Harness {

    static final String TICKS = "bench";
    static final String CONFIGMAPS = "bench-cm";
    static final String EMPTY = "bench-empty";
    static final String WAITING = "bench-wait";
    static final Duration PATIENCE = Duration.ofMinutes(5);

    final Path root = Path.of(System.getProperty("bench.root")).toAbsolutePath().normalize();
    final Path work = root.resolve("bench/harness/target/bench");
    final int n;
    final int runs;
    final int seconds;
    final int rate;
    final Results results = new Results();
    KubeHttp http;
    Path kubeconfig;
    Path usr;
    LibertyRuntime liberty;
    final ApiServerLauncher apiServers = ApiServerLauncher.fromFolder(root.resolve("local-apiserver"), StackCache.fromEnvironment(),
            line -> { });
    Path tls;
    int httpPort;
    /** Whether the servers include the one with MicroProfile Telemetry ({@link Traces}). */
    boolean telemetry;
    int httpsPort;
    /** Whether a second server runs Mooring beside the first, as its standby ({@link Failover}). */
    boolean standbyServer;
    /** Whether the cluster holds the custom resources only, no ConfigMaps ({@link Failover}, {@link Shards}). */
    boolean ticksOnly;
    /** How many Liberty servers run Mooring side by side as sharded replicas ({@link Shards}); 0 otherwise. */
    int shardServers;
    /** The HTTP port of each Liberty server. */
    final Map<String, Integer> httpPorts = new HashMap<>();
    /** The JDK the peers are launched on: JOSDK's {@code java}, Liberty's {@code JAVA_HOME}, and their {@code jcmd}. */
    Path jdk = Path.of(System.getProperty("java.home"));


    Harness(int n, int runs, int seconds, int rate) {
        this.n = n;
        this.runs = runs;
        this.seconds = seconds;
        this.rate = rate;
    }

    /** Runs the benchmark: prints its tables and writes them to a file of the work folder. */
    abstract void run() throws Exception;

    /** Prints {@code table} and writes it, with the machine, to {@code file} in the work folder. */
    void publish(String table, String file) throws IOException {
        System.out.println();
        System.out.println(table);
        Files.writeString(work.resolve(file), table + "\n" + machine());
    }

    /** What one benchmark does between the cluster's set-up and its tear-down. */
    interface Measuring {
        void measure() throws Exception;
    }

    /** A local API server with the cluster's objects and the two Liberty servers prepared, around {@code measuring}. */
    void withCluster(Measuring measuring) throws Exception {
        Files.createDirectories(work);
        Path apiserver = work.resolve("apiserver");
        RunningApiServer running = apiServers.up(apiserver);
        try {
            kubeconfig = running.kubeconfig();
            http = new KubeHttp(Config.fromConfig(kubeconfig.toString()));
            prepareCluster();
            prepareServers();
            measuring.measure();
        } finally {
            apiServers.down(apiserver);
        }
    }

    /** An idle JVM's heap after GC, and its class histogram when one was asked for (null otherwise). */
    record Idle(long heap, String histogram) {
    }

    /** Once {@code peer} reports {@code moment} (and a second more): its heap after GC and, with {@code histogram}, its class histogram. */
    static Idle settled(Peer peer, String moment, boolean histogram) throws Exception {
        peer.await(moment, PATIENCE);
        TimeUnit.SECONDS.sleep(1);
        long heap = peer.heapAfterGc();
        return new Idle(heap, histogram ? peer.histogram(Integer.MAX_VALUE) : null);
    }

    /** Starts a server of {@code serverXml} (no application) and measures it once it has started. */
    Idle idleServer(Path featuresUsr, String serverXml, boolean histogram) throws Exception {
        int[] ports = FreePorts.pick(2);
        String server = "features";
        LibertyServer created = liberty.createServer(featuresUsr, server,
                LibertyRuntime.Configuration.fromFolder(root.resolve("liberty-config/src/main/liberty/config")), ports[0], ports[1],
                Map.of("http.host", "127.0.0.1"));
        Files.writeString(created.dir().resolve("server.xml"), serverXml);
        Path command = liberty.home().resolve("bin/server");
        Map<String, String> environment = Map.of("WLP_USER_DIR", featuresUsr.toString(), "JAVA_HOME", jdk.toString());
        try (Peer peer = Peer.launch("Liberty", List.of(command.toString(), "run", server), environment,
                List.of(command.toString(), "stop", server), null, jdk)) {
            return settled(peer, "server started", histogram);
        } finally {
            deleteTree(featuresUsr.resolve("servers").resolve(server));
        }
    }

    static void deleteTree(Path tree) throws IOException {
        if (Files.exists(tree)) {
            try (var paths = Files.walk(tree)) {
                for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    /** The peer whose server adds Liberty's MicroProfile Telemetry, its SDK left off (the default): tracing configured but off. */
    static final String TELEMETRY = "Mooring+mpTelemetry";

    /** The second Mooring server of the fail-over benchmark. */
    static final String STANDBY = "bench-standby";

    /** The name of the n-th sharded replica's server but the first (which is "bench"). */
    static final String SHARD_SERVER = "bench-shard-";

    /** The moments of a start that drains N ticks; returns when the peer is ready and has reconciled all. */
    void recordStart(Peer peer) throws InterruptedException {
        recordStart(peer, peer.name());
    }

    /** The start-up measures of {@code peer}, recorded under {@code label}. */
    void recordStart(Peer peer, String label) throws InterruptedException {
        long framework = peer.await("framework start", PATIENCE);
        long engine = peer.await("engine start", PATIENCE);
        long all = peer.await("reconciled tick", PATIENCE);
        long ready = peer.await("ready", PATIENCE);
        results.add(label, Results.LAUNCH_TO_FRAMEWORK, framework);
        results.add(label, Results.LAUNCH_TO_READY, ready);
        results.add(label, Results.LAUNCH_TO_ALL, all);
        results.add(label, Results.DRAIN_FROM_FRAMEWORK, n * 1000.0 / Math.max(1, all - framework));
        results.add(label, Results.DRAIN_FROM_ENGINE, n * 1000.0 / Math.max(1, all - engine));
    }

    /** Namespaces, the CRD, N ticks and N ConfigMaps of 1 KiB each. */
    void prepareCluster() throws Exception {
        new Installer(http, new Installer.Options(Duration.ofMinutes(2), true, true), line -> { })
                .installNamespaceAndCrds(TICKS, dev.mooring.manifests.ManifestFolder.read(root.resolve("bench/tick-mooring/target/manifests")));
        for (String namespace : List.of(CONFIGMAPS, EMPTY, WAITING)) {
            http.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + namespace + "\"}}", "application/json");
        }
        String kibibyte = "x".repeat(1024);
        ExecutorService creators = Executors.newFixedThreadPool(8);
        List<Future<?>> created = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = Integer.toString(i);
            created.add(creators.submit(() -> http.send("POST", "/apis/bench.mooring.dev/v1/namespaces/" + TICKS + "/ticks", Map.of(),
                    "{\"apiVersion\":\"bench.mooring.dev/v1\",\"kind\":\"Tick\",\"metadata\":{\"name\":\"t" + name + "\"},"
                            + "\"spec\":{\"value\":" + name + "}}", "application/json")));
            if (!ticksOnly) {
                created.add(creators.submit(() -> http.send("POST", "/api/v1/namespaces/" + CONFIGMAPS + "/configmaps", Map.of(),
                        "{\"metadata\":{\"name\":\"c" + name + "\"},\"data\":{\"payload\":\"" + kibibyte + "\"}}", "application/json")));
            }
        }
        for (int i = 0; i < waiting(); i++) {
            String name = Integer.toString(i);
            created.add(creators.submit(() -> http.send("POST", "/apis/bench.mooring.dev/v1/namespaces/" + WAITING + "/ticks",
                    Map.of(), "{\"apiVersion\":\"bench.mooring.dev/v1\",\"kind\":\"Tick\",\"metadata\":{\"name\":\"w" + name
                            + "\"},\"spec\":{\"value\":" + name + "}}", "application/json")));
        }
        for (Future<?> future : created) {
            future.get();
        }
        creators.shutdown();
    }

    /** A Liberty server with Mooring's tick EAR that runs beside "bench", on ports of its own. */
    void sideServer(String server) throws Exception {
        int[] own = FreePorts.pick(2);
        liberty.createServer(usr, server, LibertyRuntime.Configuration.fromFolder(root.resolve("liberty-config/src/main/liberty/config")),
                own[0], own[1], Map.of("http.host", "127.0.0.1"));
        httpPorts.put(server, own[0]);
        Files.copy(root.resolve("bench/tick-mooring/target/tick-mooring.ear"),
                usr.resolve("servers/" + server + "/dropins/tick-mooring.ear"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** The Liberty servers (the operator; the operator with a webhook and the echo; those a benchmark adds), warmed once each. */
    void prepareServers() throws Exception {
        usr = work.resolve("usr");
        int[] ports = FreePorts.pick(2);
        httpPort = ports[0];
        httpsPort = ports[1];
        tls = apiServers.webhookCertificate(work.resolve("webhook-tls"), "bench", TICKS, null);
        liberty = LibertyRuntime.at(Path.of(exec(List.of("bash", root.resolve("scripts/liberty.sh").toString(), "home"), Map.of()).trim()));
        List<String> servers = telemetry ? List.of("bench", "bench-admission", "bench-telemetry") : List.of("bench", "bench-admission");
        for (String server : servers) {
            liberty.createServer(usr, server, LibertyRuntime.Configuration.fromFolder(root.resolve("liberty-config/src/main/liberty/config")),
                    httpPort, httpsPort, Map.of("http.host", "127.0.0.1"));
            httpPorts.put(server, httpPort);
        }
        if (standbyServer) {
            sideServer(STANDBY);
            try (Peer peer = mooring(STANDBY, environment(EMPTY, 0, EMPTY, 0))) {
                peer.await("ready", PATIENCE);
            }
        }
        for (int replica = 1; replica < shardServers; replica++) {
            sideServer(SHARD_SERVER + replica);
        }
        Path dropins = usr.resolve("servers/bench/dropins");
        Files.copy(root.resolve("bench/tick-mooring/target/tick-mooring.ear"), dropins.resolve("tick-mooring.ear"),
                StandardCopyOption.REPLACE_EXISTING);
        if (telemetry) {
            Path server = usr.resolve("servers/bench-telemetry");
            Files.copy(root.resolve("bench/tick-mooring/target/tick-mooring.ear"), server.resolve("dropins/tick-mooring.ear"),
                    StandardCopyOption.REPLACE_EXISTING);
            Files.createDirectories(server.resolve("configDropins/overrides"));
            Files.writeString(server.resolve("configDropins/overrides/telemetry.xml"),
                    "<server><featureManager><feature>mpTelemetry-2.0</feature></featureManager></server>\n");
            try (Peer peer = mooring("bench-telemetry", environment(EMPTY, 0, EMPTY, 0))) {
                peer.await("ready", PATIENCE);
            }
        }
        Path admission = usr.resolve("servers/bench-admission/dropins");
        Files.copy(root.resolve("bench/tick-mooring-admission/target/tick-mooring-admission.ear"),
                admission.resolve("tick-mooring-admission.ear"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(root.resolve("bench/echo/target/echo.war"), admission.resolve("echo.war"), StandardCopyOption.REPLACE_EXISTING);
        // warm-up: Liberty's caches, as an image's build prepares them
        try (Peer peer = mooring("bench", environment(EMPTY, 0, EMPTY, 0))) {
            peer.await("ready", PATIENCE);
        }
        try (Peer peer = mooring("bench-admission", admissionEnvironment())) {
            peer.await("ready", PATIENCE);
        }
    }

    /** The objects of the waiting reconciler's namespace: at most 1000, so that one worker drains them in 10 s. */
    int waiting() {
        return Math.min(n, 1000);
    }

    /** The heap after GC with nothing to cache. */
    void idle(String name) throws Exception {
        idle(name, name);
    }

    /** The idle heap of peer {@code name}, recorded under {@code label}. */
    void idle(String name, String label) throws Exception {
        try (Peer peer = launch(name, environment(EMPTY, 0, EMPTY, 0))) {
            results.add(label, Results.HEAP_IDLE, settled(peer, "ready", false).heap());
        }
    }

    /** A change of t0 that makes each peer print the update latencies it measured and forget them. */
    void marker() {
        http.send("PATCH", "/apis/bench.mooring.dev/v1/namespaces/" + TICKS + "/ticks/t0", Map.of(),
                "{\"spec\":{\"value\":-1,\"sent\":" + -System.currentTimeMillis() + "}}", "application/merge-patch+json");
    }

    Map<String, String> environment(String ticks, int expectedTicks, String configMaps, int expectedConfigMaps) {
        Map<String, String> environment = new HashMap<>();
        environment.put("KUBECONFIG", kubeconfig.toString());
        environment.put("WLP_USER_DIR", usr.toString());
        environment.put("MOORING_NAMESPACE", TICKS);
        environment.put("MOORING_CONTROLLER_TICKS_NAMESPACE", ticks);
        environment.put("MOORING_CONTROLLER_CONFIGMAPS_NAMESPACE", configMaps);
        environment.put("MOORING_CONTROLLER_OWNERS_NAMESPACE", EMPTY);
        environment.put("MOORING_CONTROLLER_COUNTERS_NAMESPACE", EMPTY);
        environment.put("BENCH_TICKS", Integer.toString(expectedTicks));
        environment.put("BENCH_CONFIGMAPS", Integer.toString(expectedConfigMaps));
        return environment;
    }

    Map<String, String> admissionEnvironment() {
        Map<String, String> environment = environment(EMPTY, 0, EMPTY, 0);
        environment.put("MOORING_WEBHOOK_TLS_CERT_FILE", tls.resolve("tls.crt").toString());
        environment.put("MOORING_WEBHOOK_TLS_KEY_FILE", tls.resolve("tls.key").toString());
        return environment;
    }

    Peer launch(String name, Map<String, String> environment) throws Exception {
        return name.equals("JOSDK") ? josdk(environment) : mooring(name.equals(TELEMETRY) ? "bench-telemetry" : "bench", environment);
    }

    Peer josdk(Map<String, String> environment) throws IOException {
        Path peer = root.resolve("bench/tick-josdk/target");
        String classpath = peer.resolve("classes") + ":" + Files.readString(peer.resolve("classpath.txt")).trim();
        return Peer.launch("JOSDK", List.of(jdk.resolve("bin/java").toString(), "-cp", classpath, "dev.mooring.bench.josdk.Main"),
                environment, null, null, jdk);
    }

    Peer mooring(String server, Map<String, String> environment) throws Exception {
        Path command = liberty.home().resolve("bin/server");
        String name = server.equals("bench-telemetry") ? TELEMETRY : "Mooring";
        Map<String, String> onJdk = new HashMap<>(environment);
        onJdk.put("JAVA_HOME", jdk.toString());
        return Peer.launch(name, List.of(command.toString(), "run", server), onJdk,
                List.of(command.toString(), "stop", server), URI.create("http://127.0.0.1:" + httpPorts.get(server) + "/health/ready"), jdk);
    }

    /**
     * Requests the API server counted so far, but for lists, watches, Leases and paths that are
     * no resource (discovery, health): what a reconcile could cost.
     */
    long requests() throws IOException {
        return requestCount((verb, resource) -> !verb.equals("LIST") && !verb.equals("WATCH") && !resource.isEmpty()
                && !resource.equals("leases"));
    }

    /** The LIST requests of {@code resource} (a plural, such as {@code ticks}) the API server counted so far. */
    long lists(String resource) throws IOException {
        return requestCount((verb, listed) -> verb.equals("LIST") && listed.equals(resource));
    }

    /** The sum of the API server's {@code apiserver_request_total} over the series whose verb and resource pass {@code counted}. */
    long requestCount(java.util.function.BiPredicate<String, String> counted) throws IOException {
        return requestCount((verb, resource, code) -> counted.test(verb, resource));
    }

    /** Which series of {@code apiserver_request_total} to add up, by their verb, resource and code. */
    interface Series {
        boolean counted(String verb, String resource, String code);
    }

    /** The sum of the API server's {@code apiserver_request_total} over the series {@code counted} takes. */
    long requestCount(Series counted) throws IOException {
        okhttp3.Request request = new okhttp3.Request.Builder().url(http.apiClient().getBasePath() + "/metrics").build();
        String metrics;
        try (okhttp3.Response response = http.apiClient().getHttpClient().newCall(request).execute()) {
            metrics = response.body().string();
        }
        long total = 0;
        Pattern line = Pattern.compile("^apiserver_request_total\\{(.*)\\} (\\S+)$", Pattern.MULTILINE);
        Matcher matcher = line.matcher(metrics);
        boolean any = false;
        while (matcher.find()) {
            any = true;
            String labels = matcher.group(1);
            String verb = label(labels, "verb");
            String resource = label(labels, "resource");
            if (counted.counted(verb, resource, label(labels, "code"))) {
                total += (long) Double.parseDouble(matcher.group(2));
            }
        }
        if (!any) {
            throw new IllegalStateException("The API server's /metrics has no apiserver_request_total");
        }
        return total;
    }

    static String label(String labels, String name) {
        Matcher value = Pattern.compile("(?:^|,)" + name + "=\"([^\"]*)\"").matcher(labels);
        return value.find() ? value.group(1) : "";
    }

    String classpath() throws IOException {
        Path target = root.resolve("bench/harness/target");
        return target.resolve("classes") + ":" + Files.readString(target.resolve("classpath.txt")).trim();
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static String machine() throws IOException {
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
                .findFirst().map(line -> line.substring(line.indexOf(':') + 1).trim()).orElse("unknown CPU");
        return "Machine: " + Runtime.getRuntime().availableProcessors() + " cores (" + cpu + "), "
                + memory() + ", Java "
                + System.getProperty("java.version") + ", " + System.getProperty("os.name") + " " + System.getProperty("os.version") + "\n";
    }

    static String memory() throws IOException {
        return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(line -> line.startsWith("MemTotal:"))
                .findFirst().map(line -> Long.parseLong(line.replaceAll("\\D", "")) / (1024 * 1024) + " GiB RAM").orElse("unknown RAM");
    }

    static String exec(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
        }
        return output;
    }
}
