package dev.mooring.maven;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.manifests.Installer;
import io.kubernetes.client.util.Config;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * What {@code mooring:run} and {@code mooring:start} set up on this machine: Mooring's local API
 * server (from the {@code local-apiserver} zip of the plugin's version), the operator's
 * namespace and CRDs, a webhook serving certificate, Open Liberty (installed once into the
 * cache) and a server with Mooring's configuration. Downloads and builds go to
 * {@code ~/.cache/mooring} ({@code MOORING_CACHE}), keyed by version.
 */
final class LocalStack {

    private final Log log;
    private final OperatorParts parts;
    private final String group;
    private final String version;
    private final Path cache;
    private Path tools;

    LocalStack(Log log, OperatorParts parts, String group, String version) {
        this.log = log;
        this.parts = parts;
        this.group = group;
        this.version = version;
        String configured = System.getenv("MOORING_CACHE");
        this.cache = configured == null || configured.isBlank() ? Path.of(System.getProperty("user.home"), ".cache", "mooring")
                : Path.of(configured);
    }

    /** The cluster of {@code KUBECONFIG}, or null when none is set. */
    static String givenKubeconfig() {
        String kubeconfig = System.getenv("KUBECONFIG");
        return kubeconfig == null || kubeconfig.isBlank() ? null : kubeconfig;
    }

    /** Starts a local API server with its files in {@code directory}; answers its admin kubeconfig. */
    String startApiServer(Path directory) throws IOException, InterruptedException, MojoExecutionException {
        log.info("Starting Mooring's local API server (its first build takes several minutes)");
        script(tools().resolve("local-apiserver.sh"), "up", directory.toString());
        return directory.resolve("admin.kubeconfig").toString();
    }

    void stopApiServer(Path directory) throws IOException, InterruptedException, MojoExecutionException {
        script(tools().resolve("local-apiserver.sh"), "down", directory.toString());
    }

    /** Applies the namespace and the CRDs of the manifests folder (when there is one), waiting until they are established. */
    void applyNamespaceAndCrds(String kubeconfig, String namespace, Path manifests) throws IOException, Installer.StepFailed {
        List<com.google.gson.JsonObject> objects = Files.isRegularFile(manifests.resolve("kustomization.yaml"))
                ? dev.mooring.manifests.ManifestFolder.read(manifests) : List.of();
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        try {
            thread.setContextClassLoader(getClass().getClassLoader());
            KubeHttp http = new KubeHttp(Config.fromConfig(kubeconfig));
            new Installer(http, new Installer.Options(Duration.ofMinutes(2), true, true), log::info)
                    .installNamespaceAndCrds(namespace, objects);
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    /**
     * A serving certificate for the webhooks of {@code service.namespace.svc} and localhost in
     * {@code directory}, signed by the local API server's CA (from {@code apiServer}, or a CA of
     * its own when null).
     */
    Path webhookTls(Path directory, String service, String namespace, Path apiServer)
            throws IOException, InterruptedException, MojoExecutionException {
        List<String> arguments = new ArrayList<>(List.of(directory.toString(), service, namespace));
        if (apiServer != null) {
            arguments.add(apiServer.resolve("certs/ca.crt").toString());
            arguments.add(apiServer.resolve("certs/ca.key").toString());
        }
        script(tools().resolve("webhook-tls.sh"), arguments.toArray(String[]::new));
        return directory;
    }

    /** Open Liberty's {@code wlp} folder, installed once. */
    Path liberty() throws IOException, InterruptedException, MojoExecutionException {
        String libertyVersion = libertyVersion();
        return unpacked(parts.file("io.openliberty:openliberty-runtime:zip:" + libertyVersion),
                cache.resolve("liberty").resolve(libertyVersion), "wlp/bin/server", false).resolve("wlp");
    }

    /**
     * A server in {@code dir} with Mooring's configuration, a fixed heap, plain console logs,
     * the ports, the namespace and the certificate, and the extra configuration files given
     * (name → content) in {@code configDropins/overrides}.
     */
    static void createServer(Path dir, int httpPort, int httpsPort, String namespace, Path tls, java.util.Map<String, String> overrides)
            throws IOException {
        Files.createDirectories(dir.resolve("apps"));
        Files.createDirectories(dir.resolve("dropins"));
        Files.createDirectories(dir.resolve("configDropins/overrides"));
        EarMojo.writeLibertyConfig(dir);
        Files.writeString(dir.resolve("jvm.options"), "-Xmx512m\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        Files.writeString(dir.resolve("bootstrap.properties"), String.join("\n",
                "http.port=" + httpPort,
                "https.port=" + httpsPort,
                "http.host=localhost",
                "com.ibm.ws.logging.console.format=simple",
                "com.ibm.ws.logging.console.log.level=INFO",
                "mooring.namespace=" + namespace,
                "mooring.webhook.tls.cert-file=" + tls.resolve("tls.crt"),
                "mooring.webhook.tls.key-file=" + tls.resolve("tls.key"),
                ""), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        for (java.util.Map.Entry<String, String> override : overrides.entrySet()) {
            Files.writeString(dir.resolve("configDropins/overrides").resolve(override.getKey()), override.getValue(),
                    StandardCharsets.UTF_8);
        }
    }

    /** Two free loopback ports. */
    static int[] freePorts() throws IOException {
        try (java.net.ServerSocket a = new java.net.ServerSocket(0); java.net.ServerSocket b = new java.net.ServerSocket(0)) {
            return new int[] {a.getLocalPort(), b.getLocalPort()};
        }
    }

    private Path tools() throws IOException, InterruptedException, MojoExecutionException {
        if (tools == null) {
            tools = unpacked(parts.file(group + ":local-apiserver:zip:" + version), cache.resolve("local-apiserver").resolve(version),
                    "local-apiserver.sh", version.endsWith("-SNAPSHOT"));
        }
        return tools;
    }

    /**
     * {@code zip} unpacked into {@code target} once; a {@code changing} zip (a snapshot) again when
     * its content differs from last time.
     */
    private Path unpacked(Path zip, Path target, String marker, boolean changing)
            throws IOException, InterruptedException, MojoExecutionException {
        Files.createDirectories(target.getParent());
        Path stamp = target.resolve(".unpacked-from");
        String expected = changing ? sha256(zip) : ""; // the same stamp as mooring-test's, which unpacks the same zip here
        try (RandomAccessFile lockFile = new RandomAccessFile(target.getParent().resolve(".lock").toFile(), "rw");
                FileLock lock = lockFile.getChannel().lock()) {
            if (Files.isRegularFile(target.resolve(marker)) && (!changing
                    || Files.isRegularFile(stamp) && Files.readString(stamp).equals(expected))) {
                return target;
            }
            log.info("Unpacking " + zip.getFileName() + " into " + target + " (once)");
            Path temporary = Files.createTempDirectory(target.getParent(), ".unpack");
            Process unzip = new ProcessBuilder("unzip", "-q", zip.toString(), "-d", temporary.toString()).inheritIO().start();
            if (unzip.waitFor() != 0) {
                throw new MojoExecutionException("unzip of " + zip + " failed (is unzip installed?)");
            }
            deleteRecursively(target);
            Files.move(temporary, target);
            Files.writeString(stamp, expected);
            return target;
        }
    }

    private void script(Path script, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("MOORING_CACHE", cache.toString());
        Process process = builder.start();
        try (InputStream output = process.getInputStream()) {
            for (String line : new String(output.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    log.info(line);
                }
            }
        }
        if (process.waitFor() != 0) {
            throw new IOException(script.getFileName() + " " + String.join(" ", arguments) + " failed (output above)");
        }
    }

    private static String sha256(Path file) throws IOException {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String libertyVersion() throws IOException {
        Properties versions = new Properties();
        try (InputStream in = LocalStack.class.getResourceAsStream("versions.properties")) {
            versions.load(in);
        }
        return versions.getProperty("liberty.version");
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (var walk = Files.walk(path)) {
            for (Path file : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

}
