package dev.mooring.maven;

import dev.mooring.manifests.Installer;
import dev.mooring.stack.LibertyServer;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * {@code mooring:run}: the operator on a local Liberty server, in the foreground, for the
 * development loop. Compiles the module (and writes its manifests) first; then, unless
 * {@code MOORING_KUBECONFIG} or {@code KUBECONFIG} is set, starts Mooring's local API server; applies the module's CRDs and
 * waits until they are established; and runs the operator as a loose application whose library
 * is {@code target/classes}: recompiling (an IDE's save, or {@code mvn compile} in another
 * terminal) makes Liberty restart the application within a second or two, while the API server
 * and its objects stay. It compiles by itself too: a change under {@code src/main} is compiled
 * (with the manifests), and changed CRDs are applied again. Ctrl-C stops Liberty and the local
 * API server.
 *
 * <p>Open Liberty (the version Mooring is tested on) and the local API server are installed once
 * into {@code ~/.cache/mooring} ({@code MOORING_CACHE}), keyed by version. The local API server
 * is built from Debian's packages on first use (a few minutes); where Debian's archive cannot be
 * reached, set {@code MOORING_KUBECONFIG} (or {@code KUBECONFIG}) to any cluster instead. Webhooks
 * are served on the HTTPS port with a certificate for {@code localhost} that the local API
 * server's CA signed; once the operator has started, the webhook configurations of the manifests
 * folder are registered with the local API server, pointed at that port, and removed on stop (a
 * named cluster cannot call this machine: there they are not registered).
 */
@Mojo(name = "run", requiresDependencyResolution = ResolutionScope.RUNTIME, threadSafe = false)
@Execute(phase = LifecyclePhase.PROCESS_CLASSES)
public class RunMojo extends ResolvingMojo {

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

    /**
     * A port for a debugger (JDWP, the JVM's Java Debug Wire Protocol) to attach to the server's
     * JVM, on this machine only; the server does not wait for it. Empty: no debugging.
     */
    @Parameter(property = "mooring.run.debug")
    Integer debugPort;

    /** The JVM option that opens {@code port} for a debugger on the loopback interface, without suspending the start. */
    static String debugOption(int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("mooring.run.debug must be a port (1-65535), not " + port);
        }
        return "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:" + port;
    }

    /** The folder mooring:manifests wrote (its crds.yaml is applied first). */
    @Parameter(property = "mooring.manifests.output", defaultValue = "${project.build.directory}/manifests")
    File manifests;

    /** How long the operator may take to start before the run says so (a first start builds Liberty's caches). */
    private static final java.time.Duration START_TIMEOUT = java.time.Duration.ofMinutes(3);

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (debugPort != null) {
            try {
                debugOption(debugPort);
            } catch (IllegalArgumentException e) {
                throw new MojoFailureException("mooring:run: " + e.getMessage(), e);
            }
        }
        Path run = directory.toPath().toAbsolutePath();
        OperatorParts parts = parts();
        LocalStack stack = new LocalStack(getLog(), parts, plugin.getGroupId(), plugin.getVersion());
        String kubeconfig = LocalStack.givenKubeconfig();
        boolean local = kubeconfig == null;
        Path apiserver = run.resolve("apiserver");
        try {
            Files.createDirectories(run);
            Thread stopper = null;
            // the webhook registrations made, removed on every way out (the end of Liberty, Ctrl-C, a stop of Maven)
            java.util.concurrent.atomic.AtomicReference<List<com.google.gson.JsonObject>> registered =
                    new java.util.concurrent.atomic.AtomicReference<>(List.of());
            try {
                if (local) {
                    kubeconfig = stack.startApiServer(apiserver);
                }
                stack.applyNamespaceAndCrds(kubeconfig, namespace, manifests.toPath());
                Path tls = stack.webhookTls(run.resolve("webhook-tls"), project.getArtifactId(), namespace, local ? apiserver : null);
                String server = project.getArtifactId();
                LibertyServer liberty = LocalStack.createServer(stack.liberty(), run.resolve("usr"), server, httpPort, httpsPort, namespace,
                        tls, java.util.Map.of("mooring-run.xml", String.join("\n",
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                        "<server>",
                        "    <!-- the operator, read in place from the build; a change under target/classes restarts it -->",
                        "    <application id=\"" + server + "\" name=\"" + server + "\" type=\"ear\" location=\"" + server + ".ear.xml\"/>",
                        "    <applicationMonitor updateTrigger=\"polled\" pollingRate=\"500ms\"/>",
                        "</server>",
                        "")));
                EarLayout layout = parts.layout(project, plugin.getGroupId(), plugin.getVersion(),
                        Path.of(project.getBuild().getOutputDirectory()));
                layout.replaced().forEach(replaced -> getLog().warn("mooring:run leaves out " + replaced));
                Path applicationXml = liberty.dir().resolve("apps/application.xml");
                Files.writeString(applicationXml, layout.applicationXml(), StandardCharsets.UTF_8);
                Files.writeString(liberty.dir().resolve("apps").resolve(server + ".ear.xml"), layout.looseXml(applicationXml),
                        StandardCharsets.UTF_8);

                if (debugPort != null) {
                    Files.writeString(liberty.dir().resolve("jvm.options"), System.lineSeparator() + debugOption(debugPort)
                            + System.lineSeparator(), StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                            java.nio.file.StandardOpenOption.APPEND);
                }
                // a log of an earlier run must not be read as this one's
                Files.deleteIfExists(liberty.messagesLog());
                Process process = liberty.runInForeground(java.util.Map.of("KUBECONFIG", kubeconfig));
                // Ctrl-C reaches Liberty directly; a plain stop of Maven (SIGTERM) reaches only this hook
                String cluster = kubeconfig;
                stopper = new Thread(() -> {
                    unregisterWebhooks(stack, cluster, registered.getAndSet(List.of()));
                    stop(process, liberty, local ? apiserver : null, stack);
                }, "mooring:run stop");
                Runtime.getRuntime().addShutdownHook(stopper);
                StartWatch.Outcome start = new StartWatch(liberty.messagesLog(), httpPort).await(process::isAlive, START_TIMEOUT);
                if (start.started() && local) {
                    registered.set(registerWebhooks(stack, kubeconfig, tls));
                }
                getLog().info("");
                if (start.started()) {
                    getLog().info("Kubernetes:  KUBECONFIG=" + kubeconfig);
                    getLog().info("Liberty:     http://localhost:" + httpPort + "/health/ready   (logs: "
                            + liberty.messagesLog() + ")");
                    getLog().info("Reload:      save a source: mooring:run compiles it, applies changed CRDs, and Liberty"
                            + " restarts the application");
                    if (debugPort != null) {
                        getLog().info("Debugger:    attach to 127.0.0.1:" + debugPort + " (JDWP)");
                    }
                } else {
                    // Liberty keeps running: a fix saved is deployed again
                    getLog().error("The operator did not start: " + start.detail());
                    getLog().error("Fix it and save: mooring:run compiles it and Liberty deploys it again; logs: "
                            + liberty.messagesLog());
                }
                getLog().info("Ctrl-C stops Liberty" + (local ? " and the local API server" : ""));
                getLog().info("");
                try (SourceWatch sources = new SourceWatch(List.of(project.getBasedir().toPath().resolve("src/main/java"),
                        project.getBasedir().toPath().resolve("src/main/resources")), () -> rebuild(stack, cluster, run))) {
                    sources.start();
                    int exit = process.waitFor();
                    getLog().info("Liberty exited (" + exit + ")");
                }
            } finally {
                unregisterWebhooks(stack, kubeconfig, registered.getAndSet(List.of()));
                if (stopper != null) {
                    try {
                        Runtime.getRuntime().removeShutdownHook(stopper);
                    } catch (IllegalStateException e) {
                        // shutting down: the hook runs
                    }
                }
                if (local) {
                    stack.stopApiServer(apiserver);
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

    /**
     * After a change of the sources: compiles them and writes the manifests again (Maven's
     * {@code process-classes}, in a process of its own with this build's local repository and
     * offline setting), so that Liberty restarts the application; when the CRDs changed, applies
     * them again, so that a changed {@code @CustomResource} class has its new schema at once.
     */
    private void rebuild(LocalStack stack, String kubeconfig, Path run) {
        Path crds = manifests.toPath().resolve("crds.yaml");
        try {
            byte[] before = Files.isRegularFile(crds) ? Files.readAllBytes(crds) : new byte[0];
            getLog().info("mooring:run: the sources changed; compiling (mvn process-classes)");
            List<String> command = new java.util.ArrayList<>(List.of(maven(), "-B", "-q",
                    "-Dmaven.repo.local=" + session.getLocalRepository().getBasedir()));
            if (session.isOffline()) {
                command.add("-o");
            }
            command.add("process-classes");
            Path output = run.resolve("rebuild.log");
            int exit = new ProcessBuilder(command).directory(project.getBasedir()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start().waitFor();
            if (exit != 0) {
                getLog().error("mooring:run: the build failed; fix it and save again (" + output + "):");
                buildErrors(Files.readAllLines(output)).forEach(getLog()::error);
                return;
            }
            byte[] after = Files.isRegularFile(crds) ? Files.readAllBytes(crds) : new byte[0];
            if (!java.util.Arrays.equals(before, after)) {
                stack.applyNamespaceAndCrds(kubeconfig, namespace, manifests.toPath());
                getLog().info("mooring:run: the CRDs changed and are applied again: the new schema is in effect");
            }
            getLog().info("mooring:run: compiled; Liberty restarts the application");
        } catch (IOException | Installer.StepFailed e) {
            getLog().error("mooring:run: could not rebuild: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Maven's error lines without its advice on how to read them (at most 20). */
    static List<String> buildErrors(List<String> output) {
        List<String> errors = new java.util.ArrayList<>();
        for (String line : output) {
            if (!line.startsWith("[ERROR]")) {
                continue;
            }
            String text = line.substring("[ERROR]".length()).strip();
            if (text.startsWith("-> [Help") || text.startsWith("To see the full stack trace")) {
                break;
            }
            if (!text.isEmpty() && errors.size() < 20) {
                errors.add(text);
            }
        }
        return errors;
    }

    /**
     * Registers the webhook configurations of the manifests folder with the local API server,
     * pointed at this server's HTTPS port and trusting the CA of its certificate; answers what
     * it registered. A cluster named instead of the local one is left alone: it cannot call
     * this machine.
     */
    private List<com.google.gson.JsonObject> registerWebhooks(LocalStack stack, String kubeconfig, Path tls) {
        try {
            if (!Files.isRegularFile(manifests.toPath().resolve("kustomization.yaml"))) {
                return List.of();
            }
            List<com.google.gson.JsonObject> webhooks = dev.mooring.manifests.LocalWebhooks.pointedAt(dev.mooring.manifests.ManifestFolder.read(
                    manifests.toPath()), httpsPort, Files.readAllBytes(tls.resolve("ca.crt")));
            if (!webhooks.isEmpty()) {
                stack.apply(kubeconfig, namespace, webhooks);
                getLog().info("Webhooks:    registered with the local API server, calling https://localhost:" + httpsPort
                        + " (removed on stop)");
            }
            return webhooks;
        } catch (IOException | RuntimeException | Installer.StepFailed e) {
            getLog().warn("mooring:run could not register the webhooks with the local API server: " + e.getMessage());
            return List.of();
        }
    }

    private void unregisterWebhooks(LocalStack stack, String kubeconfig, List<com.google.gson.JsonObject> webhooks) {
        if (webhooks.isEmpty()) {
            return;
        }
        try {
            stack.delete(kubeconfig, webhooks);
        } catch (IOException | RuntimeException | Installer.StepFailed e) {
            getLog().warn("mooring:run could not remove its webhook registrations: " + e.getMessage());
        }
    }

    /** The Maven that runs this goal, or {@code mvn} from the PATH. */
    private static String maven() {
        String home = System.getProperty("maven.home");
        Path mvn = home == null ? null : Path.of(home, "bin", "mvn");
        return mvn != null && Files.isExecutable(mvn) ? mvn.toString() : "mvn";
    }

    private void stop(Process process, LibertyServer liberty, Path apiserver, LocalStack stack) {
        try {
            if (process.isAlive()) {
                liberty.stop(getLog()::info);
            }
            if (apiserver != null) {
                stack.stopApiServer(apiserver);
            }
        } catch (IOException | MojoExecutionException e) {
            // stopping anyway
        }
    }
}
