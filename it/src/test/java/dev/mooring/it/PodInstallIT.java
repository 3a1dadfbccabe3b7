package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.KubernetesException;
import dev.mooring.examples.admission.DeploymentPolicy;
import dev.mooring.examples.admission.PodPolicy;
import dev.mooring.manifests.GenerateManifests;
import dev.mooring.manifests.Installer;
import dev.mooring.manifests.ManifestFolder;
import dev.mooring.runtime.internal.KubeHttp;
import io.kubernetes.client.util.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admission-policies example installed as it ships, on a local API server that runs pods
 * (podman) and enforces RBAC: its image (the demo image with the example's EAR), the generated
 * manifests with self-managed certificates, the Installer; no stand-in controller. The pod runs
 * with the generated ServiceAccount's token and RBAC only, makes its certificate, and the API
 * server calls its webhooks through the generated Service: the mutating one defaults a
 * Deployment's team label, the validating one refuses a pod in a frozen namespace from its
 * Namespace cache. The manifests come from the classes the image holds (the example's and the
 * ConfigMap mirror of Mooring's demo EAR): with fewer, the pod's token lacks a permission. The uninstall leaves no pod, container or Secret.
 */
class PodInstallIT {

    private static final String DEMO = "localhost/mooring-demo:it";
    private static final String TAG = "localhost/mooring-policies:it";
    private static final String NAMESPACE = "policies";
    private static Path runDir;
    private static KubeHttp admin;

    @BeforeAll
    static void up() throws Exception {
        runDir = Testbed.runDir().resolveSibling("testbed-pods");
        Properties env = Testbed.up(runDir, "--run-pods", "--authorization-mode=RBAC");
        admin = new KubeHttp(Config.fromConfig(env.getProperty("TESTBED_KUBECONFIG")));
    }

    @AfterAll
    static void down() throws Exception {
        Testbed.down(runDir);
    }

    @Test
    void theAdmissionPoliciesRunAsTheirPodAndTheApiServerCallsThem() throws Exception {
        Path root = Path.of(System.getProperty("mooring.it.root"));
        Podman.build(root, root.resolve("liberty-config/Containerfile"), Podman.standInBase(root), DEMO);
        // the example's EAR in place of the demo's, in an image of its own
        Path context = Files.createTempDirectory(runDir, "policies-image");
        Ears.exportWithPackage(context, "mooring.ear", DeploymentPolicy.class, NAMESPACE);
        Files.writeString(context.resolve("Containerfile"), "ARG BASE\nFROM " + DEMO + "\nCOPY mooring.ear /config/dropins/mooring.ear\n");
        Podman.build(context, context.resolve("Containerfile"), DEMO, TAG);

        Path folder = Files.createTempDirectory(runDir, "policies-manifests");
        // from the classes the image holds: Mooring's EAR brings the ConfigMap mirror, the example's package three policies
        Map<String, String> files = GenerateManifests.files(List.of(DeploymentPolicy.class, PodPolicy.class,
                dev.mooring.examples.admission.DatabasePolicy.class, dev.mooring.examples.mirror.ConfigMapMirror.class),
                new GenerateManifests.Options("policies", NAMESPACE, TAG, 1, null, null, null, false), Map.of());
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.writeString(folder.resolve(file.getKey()), file.getValue());
        }
        List<String> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
        new Installer(admin, new Installer.Options(Duration.ofMinutes(4), false, false), progress::add)
                .install(ManifestFolder.read(folder));
        assertTrue(progress.contains("  available Deployment " + NAMESPACE + "/policies"), progress.toString());

        var pod = admin.get("/api/v1/namespaces/" + NAMESPACE + "/pods", Map.of("labelSelector", "app.kubernetes.io/name=policies"))
                .getAsJsonArray("items").get(0).getAsJsonObject();
        assertEquals("policies", pod.getAsJsonObject("spec").get("serviceAccountName").getAsString());
        assertTrue(pod.getAsJsonObject("status").getAsJsonArray("containerStatuses").get(0).getAsJsonObject().get("ready").getAsBoolean());

        // the mutating webhook (scoped to the operator's namespace, as its controllers are), through the Service: the team
        // label defaulted, the namespace having no team label; replicas 0, so that the pod runner starts nothing
        var deployment = admin.send("POST", "/apis/apps/v1/namespaces/" + NAMESPACE + "/deployments", Map.of(), "{\"metadata\":{\"name\":\"app\"},"
                + "\"spec\":{\"replicas\":0,\"selector\":{\"matchLabels\":{\"app\":\"app\"}},\"template\":{\"metadata\":{\"labels\":"
                + "{\"app\":\"app\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"none\"}]}}}}", "application/json");
        assertEquals("unassigned", deployment.getAsJsonObject("metadata").getAsJsonObject("labels").get(DeploymentPolicy.TEAM)
                .getAsString(), deployment.toString());
        // the validating webhook, answering from its Namespace cache
        admin.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"frozen\",\"labels\":{\"" + PodPolicy.FROZEN
                + "\":\"true\"}}}", "application/json");
        String denied = Eventually.await("a pod in the frozen namespace refused", Duration.ofSeconds(30), () -> {
            try {
                admin.send("POST", "/api/v1/namespaces/frozen/pods", Map.of(), "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":"
                        + "[{\"name\":\"c\",\"image\":\"none\"}]}}", "application/json");
                admin.send("DELETE", "/api/v1/namespaces/frozen/pods/p", Map.of(), null, null);
                return null;
            } catch (KubernetesException e) {
                return e.getMessage();
            }
        }, message -> message != null);
        assertTrue(denied.contains("denied the request") && denied.contains("frozen"), denied);

        new Installer(admin, new Installer.Options(Duration.ofMinutes(2), false, false), line -> { }).uninstall(ManifestFolder.read(folder));
        Eventually.await("no pod, container or Secret of the operator left", Duration.ofSeconds(60), () ->
                admin.get("/api/v1/namespaces/" + NAMESPACE + "/pods", Map.of()).getAsJsonArray("items").isEmpty()
                        && admin.getOptional("/api/v1/namespaces/" + NAMESPACE + "/secrets/policies-tls", Map.of()).isEmpty()
                        && Podman.podman("ps", "-a", "--format", "{{.Labels}}").lines()
                                .noneMatch(labels -> labels.contains("testbed.mooring.dev/pod:" + NAMESPACE + "/")),
                gone -> gone);
    }
}
