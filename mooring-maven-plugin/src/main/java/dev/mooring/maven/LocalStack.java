package dev.mooring.maven;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.manifests.Installer;
import dev.mooring.stack.ApiServerLauncher;
import dev.mooring.stack.FreePorts;
import dev.mooring.stack.GivenCluster;
import dev.mooring.stack.LibertyRuntime;
import dev.mooring.stack.LibertyServer;
import dev.mooring.stack.RunningApiServer;
import dev.mooring.stack.StackCache;
import io.kubernetes.client.util.Config;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * What {@code mooring:run} and {@code mooring:start} set up on this machine, through the local
 * stack's launcher: Mooring's local API server (from the {@code local-apiserver} zip of the
 * plugin's version), the operator's namespace and CRDs, a webhook serving certificate, Open
 * Liberty (installed once into the cache) and a server with Mooring's configuration. Downloads
 * and builds go to {@code ~/.cache/mooring} ({@code MOORING_CACHE}), keyed by version.
 */
final class LocalStack {

    private final Log log;
    private final OperatorParts parts;
    private final String group;
    private final String version;
    private final StackCache cache = StackCache.fromEnvironment();
    private ApiServerLauncher apiServers;

    LocalStack(Log log, OperatorParts parts, String group, String version) {
        this.log = log;
        this.parts = parts;
        this.group = group;
        this.version = version;
    }

    /** The cluster of {@code MOORING_KUBECONFIG}, else of {@code KUBECONFIG}, or null when neither is set ({@link GivenCluster}). */
    static String givenKubeconfig() {
        return GivenCluster.kubeconfig(System.getenv(), "KUBECONFIG").map(Path::toString).orElse(null);
    }

    /** Starts a local API server with its files in {@code directory}; answers its admin kubeconfig. */
    String startApiServer(Path directory) throws IOException, MojoExecutionException {
        log.info("Starting Mooring's local API server (its first build takes several minutes)");
        return apiServers().up(directory).kubeconfig().toString();
    }

    void stopApiServer(Path directory) throws IOException, MojoExecutionException {
        apiServers().down(directory);
    }

    /** Applies the namespace and the CRDs of the manifests folder (when there is one), waiting until they are established. */
    void applyNamespaceAndCrds(String kubeconfig, String namespace, Path manifests) throws IOException, Installer.StepFailed {
        List<com.google.gson.JsonObject> objects = Files.isRegularFile(manifests.resolve("kustomization.yaml"))
                ? dev.mooring.manifests.ManifestFolder.read(manifests) : List.of();
        withInstaller(kubeconfig, installer -> installer.installNamespaceAndCrds(namespace, objects));
    }

    /** Applies these objects (the namespace first) to the cluster of {@code kubeconfig}. */
    void apply(String kubeconfig, String namespace, List<com.google.gson.JsonObject> objects) throws IOException, Installer.StepFailed {
        withInstaller(kubeconfig, installer -> installer.installInto(namespace, objects));
    }

    /** Deletes these objects from the cluster of {@code kubeconfig}; absent ones are skipped. */
    void delete(String kubeconfig, List<com.google.gson.JsonObject> objects) throws IOException, Installer.StepFailed {
        withInstaller(kubeconfig, installer -> installer.uninstall(objects));
    }

    private interface InstallerWork {
        void run(Installer installer) throws Installer.StepFailed;
    }

    /** Runs {@code work} with an installer on the cluster of {@code kubeconfig}, the plugin's class loader as the context's. */
    private void withInstaller(String kubeconfig, InstallerWork work) throws IOException, Installer.StepFailed {
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        try {
            thread.setContextClassLoader(getClass().getClassLoader());
            KubeHttp http = new KubeHttp(Config.fromConfig(kubeconfig));
            work.run(new Installer(http, new Installer.Options(Duration.ofMinutes(2), true, true), log::info));
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    /**
     * A serving certificate for the webhooks of {@code service.namespace.svc} and localhost in
     * {@code directory}, signed by the local API server's CA (from {@code apiServer}, or a CA of
     * its own when null).
     */
    Path webhookTls(Path directory, String service, String namespace, Path apiServer) throws IOException, MojoExecutionException {
        return apiServers().webhookCertificate(directory, service, namespace, apiServer == null ? null : RunningApiServer.in(apiServer));
    }

    /** Open Liberty, installed once. */
    LibertyRuntime liberty() throws IOException, MojoExecutionException {
        String libertyVersion = libertyVersion();
        Path zip = parts.file("io.openliberty:openliberty-runtime:zip:" + libertyVersion);
        log.info("Open Liberty " + libertyVersion + " in " + cache.folder(LibertyRuntime.PART, libertyVersion));
        return LibertyRuntime.install(zip, libertyVersion, cache);
    }

    /**
     * Server {@code name} under {@code usr} with Mooring's configuration, local to this
     * machine ({@code http.host=localhost}), the namespace and the certificate, and the extra
     * configuration files given (name → content) in {@code configDropins/overrides}.
     */
    static LibertyServer createServer(LibertyRuntime liberty, Path usr, String name, int httpPort, int httpsPort, String namespace,
            Path tls, Map<String, String> overrides) throws IOException {
        Map<String, String> bootstrap = new LinkedHashMap<>();
        bootstrap.put("http.host", "localhost");
        bootstrap.put("mooring.namespace", namespace);
        bootstrap.put("mooring.webhook.tls.cert-file", tls.resolve("tls.crt").toString());
        bootstrap.put("mooring.webhook.tls.key-file", tls.resolve("tls.key").toString());
        LibertyServer server = liberty.createServer(usr, name, EarMojo::writeLibertyConfig, httpPort, httpsPort, bootstrap);
        for (Map.Entry<String, String> override : overrides.entrySet()) {
            Files.writeString(server.dir().resolve("configDropins/overrides").resolve(override.getKey()), override.getValue(),
                    java.nio.charset.StandardCharsets.UTF_8);
        }
        return server;
    }

    /** Two free loopback ports. */
    static int[] freePorts() {
        return FreePorts.pick(2);
    }

    private ApiServerLauncher apiServers() throws IOException, MojoExecutionException {
        if (apiServers == null) {
            apiServers = ApiServerLauncher.fromZip(parts.file(group + ":local-apiserver:zip:" + version), version, cache, log::info);
        }
        return apiServers;
    }

    private static String libertyVersion() throws IOException {
        Properties versions = new Properties();
        try (InputStream in = LocalStack.class.getResourceAsStream("versions.properties")) {
            versions.load(in);
        }
        return versions.getProperty("liberty.version");
    }
}
