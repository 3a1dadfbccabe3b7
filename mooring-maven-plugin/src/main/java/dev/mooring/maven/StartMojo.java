package dev.mooring.maven;

import dev.mooring.manifests.Installer;
import dev.mooring.stack.LibertyRuntime;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * {@code mooring:start}: what the operator's integration tests need before they run, bound to
 * {@code pre-integration-test} — the local API server (unless {@code MOORING_KUBECONFIG} or {@code KUBECONFIG} is set) with
 * the operator's namespace and CRDs, a webhook certificate, and a Liberty server with Mooring's
 * configuration and the Arquillian Liberty adapter's needs, on free ports. Arquillian then starts
 * the server and deploys the EAR. It sets these properties for the failsafe configuration:
 * {@code mooring.test.kubeconfig}, {@code mooring.test.wlp-home}, {@code mooring.test.usr-dir},
 * {@code mooring.test.server}, {@code mooring.test.http-port}, {@code mooring.test.https-port},
 * {@code mooring.test.namespace} and {@code mooring.test.ear}. {@code mooring:stop} stops the
 * local API server afterwards.
 */
@Mojo(name = "start", defaultPhase = LifecyclePhase.PRE_INTEGRATION_TEST, requiresDependencyResolution = ResolutionScope.RUNTIME,
        threadSafe = false)
public class StartMojo extends ResolvingMojo {

    /** The operator's namespace, created when missing; the same parameter as mooring:manifests' namespace. */
    @Parameter(property = "mooring.manifests.namespace", defaultValue = "default")
    String namespace;

    /** The folder mooring:manifests wrote (its CRDs are applied). */
    @Parameter(property = "mooring.manifests.output", defaultValue = "${project.build.directory}/manifests")
    File manifests;

    /** The EAR mooring:ear wrote. */
    @Parameter(property = "mooring.ear.file", defaultValue = "${project.build.directory}/${project.build.finalName}.ear")
    File earFile;

    /** Where the server, the local API server's data and the certificates live. */
    @Parameter(property = "mooring.test.directory", defaultValue = "${project.build.directory}/mooring-test")
    File directory;

    /** Skips, with the integration tests. */
    @Parameter(property = "skipITs", defaultValue = "false")
    boolean skip;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip || Boolean.parseBoolean(project.getProperties().getProperty("skipTests", System.getProperty("skipTests", "false")))) {
            getLog().info("Integration tests skipped: nothing to start");
            return;
        }
        Path dir = directory.toPath().toAbsolutePath();
        LocalStack stack = localStack();
        try {
            Files.createDirectories(dir);
            String kubeconfig = LocalStack.givenKubeconfig();
            Path apiserver = dir.resolve("apiserver");
            Properties state = new Properties();
            if (kubeconfig == null) {
                kubeconfig = stack.startApiServer(apiserver);
                state.setProperty("apiserver", apiserver.toString());
            }
            try (OutputStream out = Files.newOutputStream(dir.resolve("state.properties"))) {
                state.store(out, "what mooring:stop stops");
            }
            stack.applyNamespaceAndCrds(kubeconfig, namespace, manifests.toPath());
            Path tls = stack.webhookTls(dir.resolve("webhook-tls"), project.getArtifactId(), namespace,
                    state.containsKey("apiserver") ? apiserver : null);
            LibertyRuntime wlp = stack.liberty();
            int[] ports = LocalStack.freePorts();
            String server = "mooring-test-" + ports[0];
            Path usr = dir.resolve("usr");
            LocalStack.createServer(wlp, usr, server, ports[0], ports[1], namespace, tls, Map.of("arquillian.xml",
                    String.join("\n",
                            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                            "<server>",
                            "    <!-- what the Arquillian Liberty adapter needs to deploy and watch the EAR -->",
                            "    <featureManager>",
                            "        <feature>localConnector-1.0</feature>",
                            "    </featureManager>",
                            "    <applicationMonitor updateTrigger=\"mbean\"/>",
                            "</server>",
                            "")));
            Properties properties = project.getProperties();
            properties.setProperty("mooring.test.kubeconfig", kubeconfig);
            properties.setProperty("mooring.test.wlp-home", wlp.home().toString());
            properties.setProperty("mooring.test.usr-dir", usr.toString());
            properties.setProperty("mooring.test.server", server);
            properties.setProperty("mooring.test.http-port", Integer.toString(ports[0]));
            properties.setProperty("mooring.test.https-port", Integer.toString(ports[1]));
            properties.setProperty("mooring.test.namespace", namespace);
            properties.setProperty("mooring.test.ear", earFile.getAbsolutePath());
            getLog().info("Ready for the integration tests: server " + server + " (HTTP " + ports[0] + "), KUBECONFIG=" + kubeconfig);
        } catch (IOException e) {
            throw new MojoExecutionException("mooring:start: " + e.getMessage(), e);
        } catch (Installer.StepFailed e) {
            throw new MojoFailureException("mooring:start could not apply the CRDs: " + e.getMessage(), e);
        }
    }
}
