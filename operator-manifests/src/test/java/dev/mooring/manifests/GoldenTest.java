package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.examples.snippets.Widget;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The generated manifests of the examples, checked in: a change to the generator or to an
 * example's classes shows in review. Regenerate with {@code -Dmooring.golden.update=true}.
 */
class GoldenTest {

    @Test
    void theReadmesWidget() throws IOException {
        golden("widgets.example.com.yaml", Yaml.of(Crds.of(List.of(Widget.class))));
        golden("rbac-widgets.yaml", Yaml.of(Rbac.of(List.of(dev.mooring.examples.snippets.WidgetController.class),
                Rbac.Settings.builder("widgets", "operators").build())));
    }

    @Test
    void theMirror() throws IOException {
        golden("rbac-configmap-mirror.yaml", Yaml.of(Rbac.of(List.of(dev.mooring.examples.mirror.ConfigMapMirror.class),
                Rbac.Settings.builder("configmap-mirror", "operators").leaseName("configmap-mirror").build())));
    }

    @Test
    void theAdmissionPolicies() throws IOException {
        golden("rbac-admission-policies.yaml", Yaml.of(Rbac.of(List.of(dev.mooring.examples.admission.DeploymentPolicy.class,
                dev.mooring.examples.admission.PodPolicy.class, dev.mooring.examples.admission.DatabasePolicy.class),
                Rbac.Settings.builder("policies", "operators").build())));
    }

    /** The whole install folder of each example, webhooks from cert-manager (no CA file in the golden files). */
    @Test
    void theInstallFolders() throws IOException {
        Map<String, List<Class<?>>> examples = new java.util.LinkedHashMap<>();
        examples.put("widgets", List.of(Widget.class, dev.mooring.examples.snippets.WidgetController.class,
                dev.mooring.examples.snippets.WidgetPolicy.class));
        examples.put("configmap-mirror", List.of(dev.mooring.examples.mirror.ConfigMapMirror.class));
        examples.put("policies", List.of(dev.mooring.examples.admission.DeploymentPolicy.class,
                dev.mooring.examples.admission.PodPolicy.class, dev.mooring.examples.admission.DatabasePolicy.class));
        for (Map.Entry<String, List<Class<?>>> example : examples.entrySet()) {
            String name = example.getKey();
            Map<String, String> files = GenerateManifests.files(example.getValue(), GenerateManifests.Options.builder().name(name)
                    .namespace("operators").image("example/" + name + ":1").replicas(1).injectCaFrom("operators/" + name + "-serving")
                    .build(), Map.of());
            StringBuilder folder = new StringBuilder();
            // install.yaml repeats the others in one file (GenerateManifestsTest checks that): not in the golden file
            files.forEach((file, content) -> {
                if (!file.equals(GenerateManifests.INSTALL_FILE)) {
                    folder.append("# ").append(file).append('\n').append(content);
                }
            });
            golden("install-" + name + ".yaml", folder.toString());
        }
    }

    /**
     * The admission example's folder in the two modes that make the certificate: self-managed (the
     * default: RBAC for the Secret and configurations by name, no bundle, no Secret volume) and
     * cert-manager (the Certificate and a self-signed Issuer, the CA injected from it).
     */
    @Test
    void theInstallFoldersWithMadeCertificates() throws IOException {
        List<Class<?>> policies = List.of(dev.mooring.examples.admission.DeploymentPolicy.class,
                dev.mooring.examples.admission.PodPolicy.class, dev.mooring.examples.admission.DatabasePolicy.class);
        for (String mode : List.of("self-managed", "cert-manager")) {
            Map<String, String> files = GenerateManifests.files(policies, GenerateManifests.Options.builder().name("policies")
                    .namespace("operators").image("example/policies:1").replicas(1)
                    .certificates(mode.equals("cert-manager") ? mode : null).build(), Map.of());
            StringBuilder folder = new StringBuilder();
            files.forEach((file, content) -> {
                if (!file.equals(GenerateManifests.INSTALL_FILE)) {
                    folder.append("# ").append(file).append('\n').append(content);
                }
            });
            golden("install-policies-" + mode + ".yaml", folder.toString());
        }
    }

    private static void golden(String name, String generated) throws IOException {
        if (Boolean.getBoolean("mooring.golden.update")) {
            Path file = Path.of("src/test/resources/golden", name);
            Files.writeString(file, generated, StandardCharsets.UTF_8);
            return;
        }
        try (InputStream in = GoldenTest.class.getResourceAsStream("/golden/" + name)) {
            String expected = in == null ? "(no golden file " + name + "; run with -Dmooring.golden.update=true)"
                    : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(expected, generated, "the generated " + name + " differs from the golden file; if intended,"
                    + " regenerate with -Dmooring.golden.update=true and review the difference");
        }
    }
}
