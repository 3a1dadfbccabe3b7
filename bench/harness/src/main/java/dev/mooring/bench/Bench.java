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
 * Mooring and the Java Operator SDK side by side on one local API server: a trivial kind and
 * no-op reconcilers in each, fresh processes, the two interleaved (the order alternating per
 * run). What is measured, and from when, is written in {@code docs/benchmarks.md}.
 *
 * <p>Arguments: {@code N} objects (5000), {@code runs} (3), {@code seconds} of load (10) and its
 * {@code rate} per second (200); or {@code start N runs} (5000, 5) for the start-up measures
 * only; or {@code jdks N runs} (5000, 3) for the start-up measures and the idle heap on each JDK
 * of {@code -Dbench.jdks} (homes separated by {@code :}; by default this JVM's and every
 * {@code /usr/lib/jvm/temurin-*}). Prints the tables and writes them to
 * {@code bench/harness/target/bench/results.md}; fails when a peer does not do what it should.
 */
public final class Bench {

    static final String TICKS = "bench";
    static final String CONFIGMAPS = "bench-cm";
    static final String EMPTY = "bench-empty";
    static final String WAITING = "bench-wait";
    /** How long a pass of the waiting reconciler waits, as on I/O. */
    static final int WAIT_MILLIS = 10;
    /** Mooring's worker counts tried with the waiting reconciler. */
    static final List<Integer> WORKERS = List.of(1, 4, 16, 64);
    private static final Duration PATIENCE = Duration.ofMinutes(5);

    private final Path root = Path.of(System.getProperty("bench.root")).toAbsolutePath().normalize();
    private final Path work = root.resolve("bench/harness/target/bench");
    private final int n;
    private final int runs;
    private final int seconds;
    private final int rate;
    private final Results results = new Results();
    private KubeHttp http;
    private Path kubeconfig;
    private Path usr;
    private LibertyRuntime liberty;
    private final ApiServerLauncher apiServers = ApiServerLauncher.fromFolder(root.resolve("local-apiserver"), StackCache.fromEnvironment(),
            line -> { });
    private Path tls;
    private int httpPort;
    /** Whether the servers include the one with MicroProfile Telemetry ({@link #runTraces}). */
    private boolean telemetry;
    private int httpsPort;
    /** Whether a second server runs Mooring beside the first, as its standby ({@link #runFailover}). */
    private boolean standbyServer;
    /** Whether the cluster holds the custom resources only, no ConfigMaps ({@link #runFailover}). */
    private boolean ticksOnly;
    /** How many Liberty servers run Mooring side by side as sharded replicas ({@link #runShards}); 0 otherwise. */
    private int shardServers;
    /** The HTTP port of each Liberty server. */
    private final Map<String, Integer> httpPorts = new HashMap<>();
    /** The JDK the peers are launched on: JOSDK's {@code java}, Liberty's {@code JAVA_HOME}, and their {@code jcmd}. */
    private Path jdk = Path.of(System.getProperty("java.home"));

    private Bench(int n, int runs, int seconds, int rate) {
        this.n = n;
        this.runs = runs;
        this.seconds = seconds;
        this.rate = rate;
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("traces")) {
            String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
            new Bench(argument(rest, 0, 5000), argument(rest, 1, 3), 0, 0).runTraces();
            return;
        }
        if (args.length > 0 && args[0].equals("scale")) {
            String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
            new Bench(argument(rest, 0, 100_000), argument(rest, 1, 1), argument(rest, 2, 10), argument(rest, 3, 200)).runScale();
            return;
        }
        if (args.length > 0 && args[0].equals("failover")) {
            String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
            new Bench(argument(rest, 0, 5000), argument(rest, 1, 3), 0, 0).runFailover();
            return;
        }
        if (args.length > 0 && args[0].equals("shards")) {
            String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
            new Bench(argument(rest, 0, 10_000), argument(rest, 1, 1), 0, 0).runShards();
            return;
        }
        if (args.length > 0 && args[0].equals("features")) {
            String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
            new Bench(0, argument(rest, 0, 3), 0, 0).runFeatures();
            return;
        }
        if (args.length > 0 && args[0].equals("deployment")) {
            String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
            new Bench(0, argument(rest, 0, 3), 0, 0).runDeployment();
            return;
        }
        if (args.length > 0 && args[0].equals("jdks")) {
            String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
            new Bench(argument(rest, 0, 5000), argument(rest, 1, 3), 0, 0).runJdks();
            return;
        }
        if (args.length > 0 && args[0].equals("start")) {
            String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
            new Bench(argument(rest, 0, 5000), argument(rest, 1, 5), 0, 0).runStart();
            return;
        }
        new Bench(argument(args, 0, 5000), argument(args, 1, 3), argument(args, 2, 10), argument(args, 3, 200)).run();
    }

    private static int argument(String[] args, int index, int otherwise) {
        return args.length > index ? Integer.parseInt(args[index]) : otherwise;
    }

    /** What one benchmark does between the cluster's set-up and its tear-down. */
    private interface Measuring {
        void measure() throws Exception;
    }

    /** A local API server with the cluster's objects and the two Liberty servers prepared, around {@code measuring}. */
    private void withCluster(Measuring measuring) throws Exception {
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

    private void run() throws Exception {
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
            System.out.println();
            System.out.println(table);
            Files.writeString(work.resolve("results.md"), table + "\n" + machine());
        });
    }

    /**
     * The start-up measures only (launch -> framework start, ready, all N reconciled; the drains):
     * quicker, for trying a change of the start-up. Same cluster, servers and alternation.
     */
    private void runStart() throws Exception {
        withCluster(() -> {
            for (int run = 0; run < runs; run++) {
                for (String peer : run % 2 == 0 ? List.of("JOSDK", "Mooring") : List.of("Mooring", "JOSDK")) {
                    try (Peer started = launch(peer, environment(TICKS, n, EMPTY, 0))) {
                        recordStart(started);
                    }
                }
            }
            String table = results.startTable(n, runs);
            System.out.println();
            System.out.println(table);
            Files.writeString(work.resolve("results-start.md"), table + "\n" + machine());
        });
    }

    /**
     * The start-up measures and the idle heap of both peers on each JDK, alternating the JDKs'
     * order and the peers' order per run: what moving the image to another Java costs or saves.
     */
    private void runJdks() throws Exception {
        List<Path> homes = jdks();
        if (homes.size() < 2) {
            throw new IllegalStateException("bench jdks needs two JDKs or more; found " + homes
                    + " (name their homes in -Dbench.jdks, separated by ':')");
        }
        List<String> versions = homes.stream().map(Bench::version).toList();
        withCluster(() -> {
            for (int run = 0; run < runs; run++) {
                List<Path> order = new ArrayList<>(homes);
                if (run % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                for (Path home : order) {
                    jdk = home;
                    for (String peer : run % 2 == 0 ? List.of("JOSDK", "Mooring") : List.of("Mooring", "JOSDK")) {
                        String label = peer + " " + version(home);
                        try (Peer started = launch(peer, environment(TICKS, n, EMPTY, 0))) {
                            recordStart(started, label);
                        }
                        idle(peer, label);
                    }
                }
                System.out.println("run " + (run + 1) + " of " + runs + " done");
            }
            jdk = Path.of(System.getProperty("java.home"));
            String table = results.jdksTable(n, runs, versions);
            System.out.println();
            System.out.println(table);
            Files.writeString(work.resolve("results-jdks.md"), table + "\n" + machine());
        });
    }

    /**
     * Where Liberty's idle heap goes, by feature: Mooring's server (its server.xml and jvm.options)
     * with no application, started with no feature (the kernel), with each of Mooring's features
     * alone (with what it brings along), with all of them, and with all but one; the used heap after
     * two full collections once the server is ready, median of the runs. The application's own
     * share is the idle heap of the other measures minus the all-features figure here.
     */
    private void runFeatures() throws Exception {
        Path config = root.resolve("liberty-config/src/main/liberty/config");
        String serverXml = Files.readString(config.resolve("server.xml"));
        Matcher block = Pattern.compile("(?s)<featureManager>.*?</featureManager>").matcher(serverXml);
        if (!block.find()) {
            throw new IllegalStateException("no <featureManager> in " + config.resolve("server.xml"));
        }
        List<String> features = new ArrayList<>();
        Matcher feature = Pattern.compile("<feature>([^<]+)</feature>").matcher(block.group());
        while (feature.find()) {
            features.add(feature.group(1).trim());
        }
        Map<String, List<String>> configurations = new java.util.LinkedHashMap<>();
        configurations.put("kernel (no feature)", List.of());
        configurations.put("all of Mooring's features", features);
        features.forEach(alone -> configurations.put("only " + alone, List.of(alone)));
        features.forEach(left -> configurations.put("all but " + left,
                features.stream().filter(other -> !other.equals(left)).toList()));
        Files.createDirectories(work);
        liberty = LibertyRuntime.at(Path.of(exec(List.of("bash", root.resolve("scripts/liberty.sh").toString(), "home"), Map.of()).trim()));
        Path featuresUsr = work.resolve("features-usr");
        for (int run = 0; run < runs; run++) {
            for (Map.Entry<String, List<String>> configuration : configurations.entrySet()) {
                String xml = block.replaceFirst(java.util.regex.Matcher.quoteReplacement("<featureManager>"
                        + configuration.getValue().stream().map(name -> "<feature>" + name + "</feature>").collect(java.util.stream.Collectors.joining())
                        + "</featureManager>"));
                results.add(configuration.getKey(), Results.HEAP_IDLE, idleServer(featuresUsr, xml, false).heap());
            }
            System.out.println("run " + (run + 1) + " of " + runs + " done");
        }
        String table = results.featuresTable(runs, new ArrayList<>(configurations.keySet()));
        System.out.println();
        System.out.println(table);
        Files.writeString(work.resolve("results-features.md"), table + "\n" + machine());
    }

    /**
     * What deploying the operator adds to Liberty's idle heap: alternately, Mooring's server with
     * all its features and no application, and the same server running the benchmark's operator
     * (the EAR, no object in its namespaces), each ready and collected; the heaps and, from the
     * last run, the class histograms' difference by owner (both histograms kept in the work folder).
     */
    private void runDeployment() throws Exception {
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
            System.out.println();
            System.out.println(table);
            Files.writeString(work.resolve("results-deployment.md"), table + "\n" + machine());
        });
    }

    private static final String NO_APPLICATION = "all features, no application";
    private static final String WITH_APPLICATION = "the operator's EAR";

    /** An idle JVM's heap after GC, and its class histogram when one was asked for (null otherwise). */
    private record Idle(long heap, String histogram) {
    }

    /** Once {@code peer} reports {@code moment} (and a second more): its heap after GC and, with {@code histogram}, its class histogram. */
    private static Idle settled(Peer peer, String moment, boolean histogram) throws Exception {
        peer.await(moment, PATIENCE);
        TimeUnit.SECONDS.sleep(1);
        long heap = peer.heapAfterGc();
        return new Idle(heap, histogram ? peer.histogram(Integer.MAX_VALUE) : null);
    }

    /** Starts a server of {@code serverXml} (no application) and measures it once it has started. */
    private Idle idleServer(Path featuresUsr, String serverXml, boolean histogram) throws Exception {
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

    private static void deleteTree(Path tree) throws IOException {
        if (Files.exists(tree)) {
            try (var paths = Files.walk(tree)) {
                for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    /** The JDK homes of {@code -Dbench.jdks}, or this JVM's and every {@code /usr/lib/jvm/temurin-*} home. */
    private static List<Path> jdks() throws IOException {
        String named = System.getProperty("bench.jdks", "").trim();
        if (!named.isEmpty()) {
            return java.util.Arrays.stream(named.split(":")).map(Path::of).toList();
        }
        List<Path> homes = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"))));
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (var entries = Files.list(jvms)) {
                entries.filter(home -> home.getFileName().toString().startsWith("temurin-") && Files.isExecutable(home.resolve("bin/java")))
                        .sorted().forEach(homes::add);
            }
        }
        return homes;
    }

    /** The feature release of the JDK at {@code home} ("17", "25"), from its {@code release} file. */
    static String version(Path home) {
        try {
            for (String line : Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return version.contains(".") ? version.substring(0, version.indexOf('.')) : version;
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read the release file of " + home, e);
        }
        throw new IllegalStateException(home + "/release names no JAVA_VERSION");
    }

    /** The peer whose server adds Liberty's MicroProfile Telemetry, its SDK left off (the default): tracing configured but off. */
    static final String TELEMETRY = "Mooring+mpTelemetry";

    /**
     * What tracing costs when it is off: Mooring as shipped (no telemetry feature: the engine's
     * spans are Tracing.NONE) against the same server with mpTelemetry-2.0 added and its SDK
     * disabled, alternating: start-up, the drain of N, the heap with N cached and idle.
     */
    private void runTraces() throws Exception {
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
            System.out.println();
            System.out.println(table);
            Files.writeString(work.resolve("results-traces.md"), table + "\n" + machine());
        });
    }

    /**
     * Many objects (100,000 by default): each peer syncs N custom resources while changes arrive at
     * the rate from its first pass on (how long a fresh change waits behind the backlog), then,
     * freshly started, N ConfigMaps of 1 KiB; the peak heap of each first sync against the steady
     * heap after it, GC pauses, RSS, and the heap per object against its JSON on the wire.
     */
    private void runScale() throws Exception {
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
            System.out.println();
            System.out.println(table);
            Files.writeString(work.resolve("results-scale.md"), table + "\n" + machine());
        });
    }

    /** The second Mooring server of the fail-over benchmark. */
    static final String STANDBY = "bench-standby";

    /**
     * Fail-over: per peer, a leader and a standby with leader election on a fresh Lease (15 s
     * duration, 10 s renew deadline, 2 s retry: the same on both), N custom resources; once the
     * leader has reconciled all and the standby has listed them, the leader's JVM gets SIGKILL.
     * Measured from the kill: the new leader's first pass, all N passed, and the LIST requests of
     * the kind the API server counted from the kill to the end.
     */
    private void runFailover() throws Exception {
        standbyServer = true;
        ticksOnly = true;
        withCluster(() -> {
            try {
                for (int run = 0; run < runs; run++) {
                    for (String peer : run % 2 == 0 ? List.of("JOSDK", "Mooring") : List.of("Mooring", "JOSDK")) {
                        failover(peer, run);
                    }
                    System.out.println("run " + (run + 1) + " of " + runs + " done");
                }
            } catch (Exception | Error e) {
                System.out.println("The benchmark failed; what it measured so far:\n" + results.draft(n, rate));
                throw e;
            }
            String table = results.failoverTable(n, runs);
            System.out.println();
            System.out.println(table);
            Files.writeString(work.resolve("results-failover.md"), table + "\n" + machine());
        });
    }

    private void failover(String name, int run) throws Exception {
        Map<String, String> environment = environment(TICKS, n, EMPTY, 0);
        String lease = "failover-" + name.toLowerCase(java.util.Locale.ROOT) + "-" + run;
        environment.put("BENCH_LEASE", lease);
        environment.put("MOORING_LEADER_ELECTION_ENABLED", "true");
        environment.put("MOORING_LEADER_ELECTION_LEASE_NAME", lease);
        environment.put("MOORING_CONTROLLER_TICKS_SYNC_TIMEOUT", "10m");
        try (Peer leader = launch(name, environment)) {
            leader.await("reconciled tick", PATIENCE);
            long listed = lists("ticks");
            try (Peer standby = name.equals("JOSDK") ? josdk(environment) : mooring(STANDBY, environment)) {
                long end = System.nanoTime() + PATIENCE.toNanos();
                while (lists("ticks") == listed) {
                    if (System.nanoTime() > end) {
                        throw new IllegalStateException(name + "'s standby never listed the custom resources");
                    }
                    TimeUnit.MILLISECONDS.sleep(50);
                }
                // its watch opened and its election saw the leader's renewals
                TimeUnit.SECONDS.sleep(5);
                long listsAtKill = lists("ticks");
                long kill = System.currentTimeMillis();
                leader.kill9();
                long first = standby.awaitEpoch("first tick", PATIENCE) - kill;
                long all = standby.awaitEpoch("reconciled tick", PATIENCE) - kill;
                TimeUnit.SECONDS.sleep(1);
                results.add(name, Results.FAILOVER_FIRST, first);
                results.add(name, Results.FAILOVER_ALL, all);
                results.add(name, Results.FAILOVER_LISTS, lists("ticks") - listsAtKill);
            }
        }
    }

    /** The name of the n-th sharded replica's server but the first (which is "bench"). */
    static final String SHARD_SERVER = "bench-shard-";
    /** The replica counts the shards benchmark compares. */
    static final List<Integer> REPLICAS = List.of(1, 2, 4);
    /** Shards of the sharded runs: 16, so that 1, 2 and 4 replicas get even shares. */
    static final int SHARDS = 16;

    /**
     * Sharding: per replica count (1, 2, 4), that many Mooring servers with
     * {@code mooring.sharding.shards=16} on a fresh set of Leases, over N custom resources, the
     * reconciler waiting 10 ms per pass (as on I/O) with 4 workers per replica. Every pass first
     * waits at a gate (a file) that the harness opens once every replica holds its share of the
     * shards: the initial lists' passes then run on all replicas at once, with no write to the
     * API server to wait for. Measured: from the gate's opening to the moment every object was
     * passed by some replica, and the passes per second that makes.
     */
    private void runShards() throws Exception {
        ticksOnly = true;
        shardServers = REPLICAS.get(REPLICAS.size() - 1);
        withCluster(() -> {
            Map<Integer, List<Double>> seconds = new java.util.TreeMap<>();
            Map<Integer, List<Double>> busy = new java.util.TreeMap<>();
            try {
                for (int run = 0; run < runs; run++) {
                    for (int replicas : REPLICAS) {
                        double[] measured = shards(replicas, run);
                        seconds.computeIfAbsent(replicas, r -> new ArrayList<>()).add(measured[0]);
                        busy.computeIfAbsent(replicas, r -> new ArrayList<>()).add(measured[1]);
                    }
                    System.out.println("run " + (run + 1) + " of " + runs + " done");
                }
            } finally {
                System.out.println("Measured so far (s, first pass of a change -> all passed): " + seconds);
            }
            String table = Results.shardsTable(n, runs, SHARDS, seconds, busy);
            System.out.println();
            System.out.println(table);
            Files.writeString(work.resolve("results-shards.md"), table + "\n" + machine());
        });
    }

    /**
     * One sharded run of {@code replicas} servers: the seconds from the gate's opening to all N
     * passed, and the share of the machine's CPU time busy meanwhile (in percent; up to the poll
     * that saw the last pass, at most 200 ms later). Prints each replica's objects, last pass and CPU time.
     */
    private double[] shards(int replicas, int run) throws Exception {
        Map<String, String> environment = environment(TICKS, n, EMPTY, 0);
        String lease = "shards-" + replicas + "-" + run;
        environment.put("MOORING_SHARDING_SHARDS", Integer.toString(SHARDS));
        environment.put("MOORING_LEADER_ELECTION_LEASE_NAME", lease);
        environment.put("MOORING_LEADER_ELECTION_LEASE_DURATION", "6s");
        environment.put("MOORING_LEADER_ELECTION_RENEW_DEADLINE", "4s");
        environment.put("MOORING_LEADER_ELECTION_RETRY_PERIOD", "1s");
        environment.put("MOORING_CONTROLLER_TICKS_WORKERS", "4");
        environment.put("MOORING_CONTROLLER_TICKS_SYNC_TIMEOUT", "10m");
        environment.put("BENCH_WAIT_MS", "10");
        Path gate = work.resolve("gate-" + lease);
        Files.deleteIfExists(gate);
        environment.put("BENCH_GATE", gate.toString());
        List<Peer> peers = new ArrayList<>();
        try {
            for (int replica = 0; replica < replicas; replica++) {
                peers.add(mooring(replica == 0 ? "bench" : SHARD_SERVER + replica, environment));
            }
            for (Peer peer : peers) {
                peer.await("ready", PATIENCE);
            }
            long end = System.nanoTime() + PATIENCE.toNanos();
            while (!balanced(replicas)) {
                if (System.nanoTime() > end) {
                    throw new IllegalStateException(replicas + " replicas never held " + SHARDS / replicas + " shards each");
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
            TimeUnit.SECONDS.sleep(2); // each replica has queued the objects of the shards it took
            long[] machineBefore = MachineCpu.read();
            List<java.time.Duration> cpuBefore = new ArrayList<>();
            for (Peer peer : peers) {
                cpuBefore.add(peer.cpuTime());
            }
            long open = System.currentTimeMillis();
            Files.createFile(gate);
            Map<String, Long> first = new HashMap<>();
            while (first.size() < n) {
                if (System.nanoTime() > end) {
                    throw new IllegalStateException(replicas + " replicas passed " + first.size() + " of " + n + " objects");
                }
                TimeUnit.MILLISECONDS.sleep(200);
                first.clear();
                peers.forEach(peer -> peer.passed().forEach((name, at) -> first.merge(name, at, Math::min)));
            }
            double busy = MachineCpu.busyPercent(machineBefore, MachineCpu.read());
            double allPassed = (first.values().stream().mapToLong(Long::longValue).max().orElseThrow() - open) / 1000.0;
            StringBuilder each = new StringBuilder();
            for (int replica = 0; replica < replicas; replica++) {
                Map<String, Long> passed = peers.get(replica).passed();
                each.append(String.format(java.util.Locale.ROOT, "%n  replica %d: %d objects, last pass at %.2f s, %.2f s of CPU", replica, passed.size(),
                        (passed.values().stream().mapToLong(Long::longValue).max().orElse(open) - open) / 1000.0,
                        (peers.get(replica).cpuTime().minus(cpuBefore.get(replica))).toMillis() / 1000.0));
            }
            System.out.printf(java.util.Locale.ROOT, "%d replicas: all passed at %.2f s, the machine's CPU %.0f %% busy meanwhile%s%n",
                    replicas, allPassed, busy, each);
            return new double[] {allPassed, busy};
        } finally {
            for (Peer peer : peers) {
                peer.close();
            }
        }
    }

    /** Whether each Mooring server of the first {@code replicas} reports {@code SHARDS / replicas} shards in its readiness data. */
    private boolean balanced(int replicas) throws Exception {
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        java.util.regex.Pattern owned = java.util.regex.Pattern.compile("shards \\[([0-9, ]*)\\] of " + SHARDS);
        for (int replica = 0; replica < replicas; replica++) {
            int port = httpPorts.get(replica == 0 ? "bench" : SHARD_SERVER + replica);
            String body = client.send(java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            java.util.regex.Matcher matcher = owned.matcher(body);
            if (!matcher.find() || matcher.group(1).isBlank() || matcher.group(1).split(",").length != SHARDS / replicas) {
                return false;
            }
        }
        return true;
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

    /** The moments of a start that drains N ticks; returns when the peer is ready and has reconciled all. */
    private void recordStart(Peer peer) throws InterruptedException {
        recordStart(peer, peer.name());
    }

    /** The start-up measures of {@code peer}, recorded under {@code label}. */
    private void recordStart(Peer peer, String label) throws InterruptedException {
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
    private void prepareCluster() throws Exception {
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

    /** The two Liberty servers (the operator; the operator with a webhook and the echo), warmed once each. */
    /** A Liberty server with Mooring's tick EAR that runs beside "bench", on ports of its own. */
    private void sideServer(String server) throws Exception {
        int[] own = FreePorts.pick(2);
        liberty.createServer(usr, server, LibertyRuntime.Configuration.fromFolder(root.resolve("liberty-config/src/main/liberty/config")),
                own[0], own[1], Map.of("http.host", "127.0.0.1"));
        httpPorts.put(server, own[0]);
        Files.copy(root.resolve("bench/tick-mooring/target/tick-mooring.ear"),
                usr.resolve("servers/" + server + "/dropins/tick-mooring.ear"), StandardCopyOption.REPLACE_EXISTING);
    }

    private void prepareServers() throws Exception {
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

    /** The objects of the waiting reconciler's namespace: at most 1000, so that one worker drains them in 10 s. */
    private int waiting() {
        return Math.min(n, 1000);
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

    /** The heap after GC with nothing to cache. */
    private void idle(String name) throws Exception {
        idle(name, name);
    }

    /** The idle heap of peer {@code name}, recorded under {@code label}. */
    private void idle(String name, String label) throws Exception {
        try (Peer peer = launch(name, environment(EMPTY, 0, EMPTY, 0))) {
            results.add(label, Results.HEAP_IDLE, settled(peer, "ready", false).heap());
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

    /** A change of t0 that makes each peer print the update latencies it measured and forget them. */
    private void marker() {
        http.send("PATCH", "/apis/bench.mooring.dev/v1/namespaces/" + TICKS + "/ticks/t0", Map.of(),
                "{\"spec\":{\"value\":-1,\"sent\":" + -System.currentTimeMillis() + "}}", "application/merge-patch+json");
    }

    private Map<String, String> environment(String ticks, int expectedTicks, String configMaps, int expectedConfigMaps) {
        Map<String, String> environment = new HashMap<>();
        environment.put("KUBECONFIG", kubeconfig.toString());
        environment.put("WLP_USER_DIR", usr.toString());
        environment.put("MOORING_NAMESPACE", TICKS);
        environment.put("MOORING_CONTROLLER_TICKS_NAMESPACE", ticks);
        environment.put("MOORING_CONTROLLER_CONFIGMAPS_NAMESPACE", configMaps);
        environment.put("BENCH_TICKS", Integer.toString(expectedTicks));
        environment.put("BENCH_CONFIGMAPS", Integer.toString(expectedConfigMaps));
        return environment;
    }

    private Map<String, String> admissionEnvironment() {
        Map<String, String> environment = environment(EMPTY, 0, EMPTY, 0);
        environment.put("MOORING_WEBHOOK_TLS_CERT_FILE", tls.resolve("tls.crt").toString());
        environment.put("MOORING_WEBHOOK_TLS_KEY_FILE", tls.resolve("tls.key").toString());
        return environment;
    }

    private Peer launch(String name, Map<String, String> environment) throws Exception {
        return name.equals("JOSDK") ? josdk(environment) : mooring(name.equals(TELEMETRY) ? "bench-telemetry" : "bench", environment);
    }

    private Peer josdk(Map<String, String> environment) throws IOException {
        Path peer = root.resolve("bench/tick-josdk/target");
        String classpath = peer.resolve("classes") + ":" + Files.readString(peer.resolve("classpath.txt")).trim();
        return Peer.launch("JOSDK", List.of(jdk.resolve("bin/java").toString(), "-cp", classpath, "dev.mooring.bench.josdk.Main"),
                environment, null, null, jdk);
    }

    private Peer mooring(String server, Map<String, String> environment) throws Exception {
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
    private long requests() throws IOException {
        return requestCount((verb, resource) -> !verb.equals("LIST") && !verb.equals("WATCH") && !resource.isEmpty()
                && !resource.equals("leases"));
    }

    /** The LIST requests of {@code resource} (a plural, such as {@code ticks}) the API server counted so far. */
    private long lists(String resource) throws IOException {
        return requestCount((verb, listed) -> verb.equals("LIST") && listed.equals(resource));
    }

    /** The sum of the API server's {@code apiserver_request_total} over the series whose verb and resource pass {@code counted}. */
    private long requestCount(java.util.function.BiPredicate<String, String> counted) throws IOException {
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
            if (counted.test(verb, resource)) {
                total += (long) Double.parseDouble(matcher.group(2));
            }
        }
        if (!any) {
            throw new IllegalStateException("The API server's /metrics has no apiserver_request_total");
        }
        return total;
    }

    private static String label(String labels, String name) {
        Matcher value = Pattern.compile("(?:^|,)" + name + "=\"([^\"]*)\"").matcher(labels);
        return value.find() ? value.group(1) : "";
    }

    private String classpath() throws IOException {
        Path target = root.resolve("bench/harness/target");
        return target.resolve("classes") + ":" + Files.readString(target.resolve("classpath.txt")).trim();
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String machine() throws IOException {
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
                .findFirst().map(line -> line.substring(line.indexOf(':') + 1).trim()).orElse("unknown CPU");
        return "Machine: " + Runtime.getRuntime().availableProcessors() + " cores (" + cpu + "), "
                + memory() + ", Java "
                + System.getProperty("java.version") + ", " + System.getProperty("os.name") + " " + System.getProperty("os.version") + "\n";
    }

    private static String memory() throws IOException {
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
