package dev.mooring.examples.gadgets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** mooring:manifests ran in this module's build (process-classes, before the tests) and wrote the install folder. */
class ManifestsTest {

    private static final Path MANIFESTS = Path.of("target/manifests");

    @Test
    void theBuildWroteTheManifests() throws Exception {
        assertEquals(List.of("crds.yaml", "deployment.yaml", "install.yaml", "kustomization.yaml", "kustomizeconfig.yaml", "namespace.yaml",
                "rbac.yaml"),
                Files.list(MANIFESTS).map(file -> file.getFileName().toString()).sorted().toList());
        String crds = Files.readString(MANIFESTS.resolve("crds.yaml"));
        assertTrue(crds.contains("name: gadgets.gadgets.example.com") && crds.contains("minimum: 1") && crds.contains("default: small"),
                crds);
        String rbac = Files.readString(MANIFESTS.resolve("rbac.yaml"));
        assertTrue(rbac.contains("- gadgets/status") && rbac.contains("- configmaps"), rbac);
        assertTrue(Files.readString(MANIFESTS.resolve("deployment.yaml")).contains("image: example/gadgets:1"));
    }
}
