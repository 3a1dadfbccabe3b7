package dev.mooring.maven;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.Durations;
import dev.mooring.manifests.Installer;
import dev.mooring.manifests.ManifestFolder;
import io.kubernetes.client.util.Config;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * What {@code mooring:install} and {@code mooring:uninstall} share: the manifests folder, the
 * options and the connection — {@code MOORING_KUBECONFIG}, else {@code KUBECONFIG}, else
 * {@code ~/.kube/config}, else the pod's service account, as kubectl finds it.
 */
abstract class ClusterMojo extends AbstractMojo {

    /** The folder mooring:manifests wrote. */
    @Parameter(property = "mooring.manifests.output", defaultValue = "${project.build.directory}/manifests")
    File manifests;

    /** Bounds the whole, as a duration such as 90s or 5m. */
    @Parameter(property = "mooring.install.timeout", defaultValue = "5m")
    String timeout;

    /** Take over fields another field manager owns. */
    @Parameter(property = "mooring.install.force", defaultValue = "false")
    boolean force;

    /** Uninstall leaves the CRDs, and with them every custom resource. */
    @Parameter(property = "mooring.uninstall.keep-crds", defaultValue = "false")
    boolean keepCrds;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Installer.Options options;
        List<com.google.gson.JsonObject> objects;
        try {
            options = new Installer.Options(Durations.positive("mooring.install.timeout", timeout), force, keepCrds);
            objects = ManifestFolder.read(manifests.toPath());
        } catch (IllegalArgumentException | IOException e) {
            throw new MojoFailureException(goal() + ": " + e.getMessage(), e);
        }
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        try {
            thread.setContextClassLoader(getClass().getClassLoader());
            java.util.Optional<java.nio.file.Path> named = dev.mooring.stack.GivenCluster.kubeconfig(System.getenv(), null);
            KubeHttp http = new KubeHttp(named.isPresent() ? Config.fromConfig(named.get().toString()) : Config.defaultClient());
            run(new Installer(http, options, line -> getLog().info(line)), objects);
        } catch (IOException e) {
            throw new MojoExecutionException(goal() + " cannot connect: " + e.getMessage(), e);
        } catch (Installer.StepFailed e) {
            throw new MojoFailureException(goal() + ": " + e.getMessage() + "; what was applied before stays for inspection", e);
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    abstract String goal();

    abstract void run(Installer installer, List<com.google.gson.JsonObject> objects) throws Installer.StepFailed;
}
