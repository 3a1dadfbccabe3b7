package dev.mooring.maven;

import dev.mooring.manifests.Installer;
import java.util.List;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * {@code mooring:install}: applies the generated manifests to the cluster in order — namespaces,
 * CRDs (until Established), RBAC, Service and Deployment (until its current revision is
 * available), then the webhook registrations — with server-side apply as field manager
 * {@code mooring-install}. Run it after {@code mvn package}, with an identity allowed
 * to install CRDs, RBAC and webhook registrations.
 */
@Mojo(name = "install", threadSafe = true)
public class InstallMojo extends ClusterMojo {

    @Override
    String goal() {
        return "mooring:install";
    }

    @Override
    void run(Installer installer, List<com.google.gson.JsonObject> objects) throws Installer.StepFailed {
        installer.install(objects);
    }
}
