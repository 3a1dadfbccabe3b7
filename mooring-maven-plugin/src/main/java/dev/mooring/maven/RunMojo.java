package dev.mooring.maven;

import dev.mooring.manifests.Installer;
import dev.mooring.runtime.internal.KubeHttp;
import io.kubernetes.client.util.Config;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.repository.RemoteRepository;

/**
 * {@code mooring:run}: the operator on a local Liberty server, in the foreground, for the
 * development loop. Compiles the module (and writes its manifests) first; then, unless
 * {@code KUBECONFIG} is set, starts Mooring's local API server; applies the module's CRDs and
 * waits until they are established; and runs the operator as a loose application whose library
 * is {@code target/classes}: recompiling (an IDE's save, or {@code mvn compile} in another
 * terminal) makes Liberty restart the application within a second or two, while the API server
 * and its objects stay. Ctrl-C stops Liberty and the local API server.
 *
 * <p>Open Liberty (the version Mooring is tested on) and the local API server are installed once
 * into {@code ~/.cache/mooring} ({@code MOORING_CACHE}), keyed by version. The local API server
 * is built from Debian's packages on first use (a few minutes); where Debian's archive cannot be
 * reached, set {@code KUBECONFIG} to any cluster instead. Webhooks are served on the HTTPS port
 * with a certificate for {@code localhost} but not registered with the API server.
 */
@Mojo(name = "run", requiresDependencyResolution = ResolutionScope.RUNTIME, threadSafe = false)
@Execute(phase = LifecyclePhase.PROCESS_CLASSES)
public class RunMojo extends AbstractMojo {

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    PluginDescriptor plugin;

    @Parameter(defaultValue = "${repositorySystemSession}", readonly = true, required = true)
    RepositorySystemSession session;

    @Parameter(defaultValue = "${project.remoteProjectRepositories}", readonly = true, required = true)
    List<RemoteRepository> repositories;

    @Component
    RepositorySystem repositorySystem;

    /** Liberty's HTTP port (health, metrics, Mooring's REST API). */
    @Parameter(property = "mooring.run.http-port", defaultValue = "9080")
    int httpPort;

    /** Liberty's HTTPS port (admission webhooks). */
    @Parameter(property = "mooring.run.https-port", defaultValue = "9443")
    int httpsPort;

    /** The operator's namespace (mooring.namespace), created when missing; the same parameter as mooring:manifests' namespace. */
    @Parameter(property = "mooring.manifests.namespace", defaultValue = "default")
    String namespace;

    /** Where the server, the local API server's data and the certificates live. */
    @Parameter(property = "mooring.run.directory", defaultValue = "${project.build.directory}/mooring-run")
    File directory;

    /** The folder mooring:manifests wrote (its crds.yaml is applied first). */
    @Parameter(property = "mooring.manifests.output", defaultValue = "${project.build.directory}/manifests")
    File manifests;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Path run = directory.toPath().toAbsolutePath();
        Path cache = cache();
        OperatorParts parts = new OperatorParts(repositorySystem, session, repositories);
        String version = plugin.getVersion();
        try {
            Files.createDirectories(run);
            Path tools = unpacked(parts.file(plugin.getGroupId() + ":local-apiserver:zip:" + version),
                    cache.resolve("local-apiserver").resolve(version), "local-apiserver.sh", version.endsWith("-SNAPSHOT"));
            String kubeconfig = System.getenv("KUBECONFIG");
            Path apiserver = run.resolve("apiserver");
            boolean local = kubeconfig == null || kubeconfig.isBlank();
            Process liberty = null;
            Thread stopper = null;
            try {
                if (local) {
                    getLog().info("No KUBECONFIG: starting Mooring's local API server (its first build takes several minutes)");
                    script(cache, tools.resolve("local-apiserver.sh"), "up", apiserver.toString());
                    kubeconfig = apiserver.resolve("admin.kubeconfig").toString();
                }
                applyCrds(kubeconfig);
                Path tls = run.resolve("webhook-tls");
                List<String> tlsArgs = new ArrayList<>(List.of(tls.toString(), project.getArtifactId(), namespace));
                if (local) {
                    tlsArgs.add(apiserver.resolve("certs/ca.crt").toString());
                    tlsArgs.add(apiserver.resolve("certs/ca.key").toString());
                }
                script(cache, tools.resolve("webhook-tls.sh"), tlsArgs.toArray(String[]::new));
                Path wlp = unpacked(parts.file("io.openliberty:openliberty-runtime:zip:" + libertyVersion()),
                        cache.resolve("liberty").resolve(libertyVersion()), "wlp/bin/server", false).resolve("wlp");
                String server = project.getArtifactId();
                Path usr = run.resolve("usr");
                createServer(usr.resolve("servers").resolve(server), parts, tls);

                getLog().info("");
                getLog().info("Kubernetes:  KUBECONFIG=" + kubeconfig);
                getLog().info("Liberty:     http://localhost:" + httpPort + "/health/ready   (logs: "
                        + usr.resolve("servers").resolve(server).resolve("logs/messages.log") + ")");
                getLog().info("Reload:      recompile (mvn compile in another terminal): Liberty restarts the application");
                getLog().info("Ctrl-C stops Liberty" + (local ? " and the local API server" : ""));
                getLog().info("");

                ProcessBuilder builder = new ProcessBuilder(wlp.resolve("bin/server").toString(), "run", server).inheritIO();
                builder.environment().put("WLP_USER_DIR", usr.toString());
                builder.environment().put("KUBECONFIG", kubeconfig);
                liberty = builder.start();
                Process started = liberty;
                boolean stopLocal = local;
                // Ctrl-C reaches Liberty directly; a plain stop of Maven (SIGTERM) reaches only this hook
                stopper = new Thread(() -> stop(started, wlp, usr, server, stopLocal ? apiserver : null, cache, tools),
                        "mooring:run stop");
                Runtime.getRuntime().addShutdownHook(stopper);
                int exit = liberty.waitFor();
                getLog().info("Liberty exited (" + exit + ")");
            } finally {
                if (stopper != null) {
                    try {
                        Runtime.getRuntime().removeShutdownHook(stopper);
                    } catch (IllegalStateException e) {
                        // shutting down: the hook runs
                    }
                }
                if (local) {
                    script(cache, tools.resolve("local-apiserver.sh"), "down", apiserver.toString());
                }
            }
        } catch (IOException e) {
            throw new MojoExecutionException("mooring:run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("mooring:run interrupted", e);
        } catch (Installer.StepFailed e) {
            throw new MojoFailureException("mooring:run could not apply the CRDs: " + e.getMessage(), e);
        }
    }

    private void stop(Process liberty, Path wlp, Path usr, String server, Path apiserver, Path cache, Path tools) {
        try {
            if (liberty.isAlive()) {
                ProcessBuilder builder = new ProcessBuilder(wlp.resolve("bin/server").toString(), "stop", server).inheritIO();
                builder.environment().put("WLP_USER_DIR", usr.toString());
                builder.start().waitFor();
            }
            if (apiserver != null) {
                script(cache, tools.resolve("local-apiserver.sh"), "down", apiserver.toString());
            }
        } catch (IOException | InterruptedException e) {
            // stopping anyway
        }
    }

    private void applyCrds(String kubeconfig) throws IOException, Installer.StepFailed {
        Path folder = manifests.toPath();
        List<com.google.gson.JsonObject> objects = Files.isRegularFile(folder.resolve("kustomization.yaml"))
                ? Installer.read(folder) : List.of();
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        try {
            thread.setContextClassLoader(getClass().getClassLoader());
            KubeHttp http = new KubeHttp(Config.fromConfig(kubeconfig));
            new Installer(http, new Installer.Options(Duration.ofMinutes(2), true, true), line -> getLog().info(line))
                    .installNamespaceAndCrds(namespace, objects);
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    /** The server: Mooring's configuration, the ports, the certificate, and the operator as a loose EAR. */
    private void createServer(Path dir, OperatorParts parts, Path tls) throws IOException, MojoExecutionException {
        Files.createDirectories(dir.resolve("apps"));
        Files.createDirectories(dir.resolve("configDropins/overrides"));
        EarMojo.writeLibertyConfig(dir);
        Files.writeString(dir.resolve("jvm.options"), "-Xmx512m\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(dir.resolve("bootstrap.properties"), String.join("\n",
                "http.port=" + httpPort,
                "https.port=" + httpsPort,
                "http.host=localhost",
                "com.ibm.ws.logging.console.format=simple",
                "com.ibm.ws.logging.console.log.level=INFO",
                "mooring.namespace=" + namespace,
                "mooring.webhook.tls.cert-file=" + tls.resolve("tls.crt"),
                "mooring.webhook.tls.key-file=" + tls.resolve("tls.key"),
                ""), StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        EarLayout layout = parts.layout(project, plugin.getGroupId(), plugin.getVersion(),
                Path.of(project.getBuild().getOutputDirectory()));
        layout.replaced().forEach(replaced -> getLog().warn("mooring:run leaves out " + replaced));
        Path applicationXml = dir.resolve("apps/application.xml");
        Files.writeString(applicationXml, layout.applicationXml(), StandardCharsets.UTF_8);
        String name = project.getArtifactId();
        Files.writeString(dir.resolve("apps").resolve(name + ".ear.xml"), layout.looseXml(applicationXml), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("configDropins/overrides/mooring-run.xml"), String.join("\n",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                "<server>",
                "    <!-- the operator, read in place from the build; a change under target/classes restarts it -->",
                "    <application id=\"" + name + "\" name=\"" + name + "\" type=\"ear\" location=\"" + name + ".ear.xml\"/>",
                "    <applicationMonitor updateTrigger=\"polled\" pollingRate=\"500ms\"/>",
                "</server>",
                ""), StandardCharsets.UTF_8);
    }

    /**
     * {@code zip} unpacked into {@code target} once; a {@code changing} zip (a snapshot) again when
     * it is another file than last time.
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
            getLog().info("Unpacking " + zip.getFileName() + " into " + target + " (once)");
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

    private void script(Path cache, Path script, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("MOORING_CACHE", cache.toString());
        Process process = builder.start();
        try (InputStream output = process.getInputStream()) {
            for (String line : new String(output.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    getLog().info(line);
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

    private static Path cache() {
        String configured = System.getenv("MOORING_CACHE");
        return configured == null || configured.isBlank() ? Path.of(System.getProperty("user.home"), ".cache", "mooring")
                : Path.of(configured);
    }

    private static String libertyVersion() throws IOException {
        Properties versions = new Properties();
        try (InputStream in = RunMojo.class.getResourceAsStream("versions.properties")) {
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
