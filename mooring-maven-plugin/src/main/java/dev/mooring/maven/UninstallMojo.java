package dev.mooring.maven;

import dev.mooring.manifests.Installer;
import java.util.List;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * {@code mooring:uninstall}: deletes what {@code mooring:install} applied, in reverse — webhook
 * registrations first, then the Deployment and Service, RBAC, and the CRDs (with every custom
 * resource; {@code -Dmooring.uninstall.keep-crds} keeps them). Namespaces stay.
 */
@Mojo(name = "uninstall", threadSafe = true)
public class UninstallMojo extends ClusterMojo {

    @Override
    String goal() {
        return "mooring:uninstall";
    }

    @Override
    void run(Installer installer, List<com.google.gson.JsonObject> objects) throws Installer.StepFailed {
        installer.uninstall(objects);
    }
}
