package dev.mooring.it;

import dev.mooring.stack.ApiServerLauncher;
import dev.mooring.stack.StackCache;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/** The API server the tests run against (started through scripts/local-stack.sh by the build, before the tests). */
final class Testbed {

    /** The launcher of this checkout's local API server, with the cache of the build ({@code MOORING_CACHE}). */
    private static final ApiServerLauncher LAUNCHER = ApiServerLauncher.fromFolder(
            Path.of(System.getProperty("mooring.it.root"), "local-apiserver"), StackCache.fromEnvironment(), System.out::println);

    private Testbed() {
    }

    static Path runDir() {
        return Path.of(System.getProperty("mooring.it.testbed"));
    }

    static ApiClient client() {
        try {
            return Config.fromConfig(runDir().resolve("admin.kubeconfig").toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Properties env() {
        Properties properties = new Properties();
        try (var reader = Files.newBufferedReader(runDir().resolve("testbed.env"))) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    /** A fresh namespace for one test, so tests sharing the instance never see each other's objects. */
    static String createNamespace(CoreV1Api core, String prefix) throws ApiException {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
        return name;
    }

    /** Start another testbed instance (free ports) with extra API server flags; returns its env file. */
    static Properties up(Path runDir, String... extraArgs) throws IOException {
        return LAUNCHER.up(runDir, extraArgs).environment();
    }

    static void down(Path runDir) throws IOException {
        LAUNCHER.down(runDir);
    }

    /** Write {@code file}: a kubeconfig for the instance of {@code env} that authenticates with {@code token}. */
    static Path tokenKubeconfig(Path file, Properties env, String token) throws IOException {
        return java.nio.file.Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters: [{name: testbed, cluster: {server: %s, certificate-authority: %s}}]
                users: [{name: operator, user: {token: %s}}]
                contexts: [{name: operator, context: {cluster: testbed, user: operator}}]
                current-context: operator
                """.formatted(env.getProperty("TESTBED_SERVER"), env.getProperty("TESTBED_CA_FILE"), token));
    }

    /** A bearer token of ServiceAccount namespace/name on the instance in {@code runDir}. */
    /**
     * The flags for an API server that writes an audit log of {@code rules} (the policy's rules,
     * YAML, everything else at level None) to {@code dir/audit.log}, a new one; the policy is
     * written beside it.
     */
    static List<String> auditFlags(Path dir, String rules) throws IOException {
        Files.createDirectories(dir);
        Path policy = Files.writeString(dir.resolve("audit-policy.yaml"), "apiVersion: audit.k8s.io/v1\nkind: Policy\n"
                + "omitStages: [RequestReceived, ResponseStarted]\nrules:\n" + rules + "- level: None\n");
        Path audit = dir.resolve("audit.log");
        Files.deleteIfExists(audit);
        return List.of("--audit-policy-file=" + policy, "--audit-log-path=" + audit);
    }

    static String token(Path runDir, String namespace, String name) throws IOException {
        return LAUNCHER.token(runDir, namespace, name);
    }

    /** Compact etcd's history up to its current revision, so that older resourceVersions are gone (410). */
    static void compactEtcd() throws IOException, InterruptedException {
        compactEtcd(env());
    }

    /** Compact the etcd of the instance whose env file is {@code env}. */
    static void compactEtcd(Properties env) throws IOException, InterruptedException {
        Path etcdctl = Path.of(System.getProperty("mooring.it.testbed.home"), "tool/usr/bin/etcdctl");
        ProcessBuilder status = new ProcessBuilder(etcdctl.toString(), "--endpoints=" + env.getProperty("TESTBED_ETCD_URL"),
                "endpoint", "status", "-w", "json");
        Process process = status.redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String json = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        process.waitFor();
        java.util.regex.Matcher revision = java.util.regex.Pattern.compile("\"revision\":(\\d+)").matcher(json);
        if (!revision.find()) {
            throw new IllegalStateException("no revision in etcdctl output: " + json);
        }
        run(new ProcessBuilder(etcdctl.toString(), "--endpoints=" + env.getProperty("TESTBED_ETCD_URL"), "compact",
                revision.group(1)));
    }

    /** Stop the API server (etcd keeps its data). */
    static void stop() throws IOException {
        LAUNCHER.down(runDir());
    }

    /**
     * Start it again on the same port, keeping the objects of before. etcd's default ports
     * (2379, 2380) are held meanwhile where they are free, as a local etcd or a second run on the
     * machine would hold them: the restart must pick free ones.
     */
    static void restart(String port) throws IOException {
        List<java.net.ServerSocket> held = new java.util.ArrayList<>();
        for (int etcdDefault : new int[] {2379, 2380}) {
            try {
                held.add(new java.net.ServerSocket(etcdDefault, 1, java.net.InetAddress.getLoopbackAddress()));
            } catch (IOException taken) {
                // already in use by someone else: the condition holds anyway
            }
        }
        try {
            String flags = System.getProperty("mooring.it.testbed.args", "").trim();
            LAUNCHER.restart(runDir(), Integer.parseInt(port), flags.isEmpty() ? new String[0] : flags.split("\\s+"));
        } finally {
            for (java.net.ServerSocket socket : held) {
                socket.close();
            }
        }
    }

    /** Start the stopped instance of {@code runDir} again on {@code port}, with its objects; its watch cache starts afresh. */
    static Properties restart(Path runDir, int port) throws IOException {
        return LAUNCHER.restart(runDir, port).environment();
    }

    private static void run(ProcessBuilder builder) throws IOException, InterruptedException {
        Process process = builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        int code = process.waitFor();
        if (code != 0) {
            throw new IllegalStateException(String.join(" ", builder.command()) + " exited with " + code);
        }
    }
}
