package dev.mooring.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.examples.snippets.WidgetController;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The goal on a module's compiled classes (the user guide's snippets, as a user's module): the folder, or the error named. */
class ManifestsMojoTest {

    @TempDir
    Path dir;

    /** The snippets' classes as a module's output directory. */
    private Path classes() throws Exception {
        Path location = Path.of(WidgetController.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isDirectory(location)) {
            return location;
        }
        Path unpacked = Files.createDirectories(dir.resolve("classes"));
        try (JarInputStream jar = new JarInputStream(Files.newInputStream(location))) {
            for (JarEntry entry = jar.getNextJarEntry(); entry != null; entry = jar.getNextJarEntry()) {
                if (entry.getName().endsWith(".class")) {
                    Path file = unpacked.resolve(entry.getName());
                    Files.createDirectories(file.getParent());
                    Files.copy((InputStream) jar, file);
                }
            }
        }
        return unpacked;
    }

    private ManifestsMojo mojo(Path classes) {
        ManifestsMojo mojo = new ManifestsMojo();
        mojo.project = new MavenProject();
        mojo.project.getBuild().setOutputDirectory(classes.toString());
        mojo.output = dir.resolve("manifests").toFile();
        return mojo;
    }

    @Test
    void writesTheFolderFromTheModulesClasses() throws Exception {
        ManifestsMojo mojo = mojo(classes());
        mojo.name = "widgets";
        mojo.namespace = "operators";
        mojo.image = "example/widgets:1";
        mojo.replicas = 1;
        mojo.execute();
        Path manifests = dir.resolve("manifests");
        assertEquals(List.of("crds.yaml", "deployment.yaml", "install.yaml", "kustomization.yaml", "rbac.yaml", "service.yaml",
                "webhooks.yaml"), Files.list(manifests).map(file -> file.getFileName().toString()).sorted().toList());
        assertTrue(Files.readString(manifests.resolve("crds.yaml")).contains("name: widgets.example.com"));
        assertTrue(Files.readString(manifests.resolve("rbac.yaml")).contains("- widgets/status"));
        assertTrue(Files.readString(manifests.resolve("deployment.yaml")).contains("image: example/widgets:1"));
        assertTrue(Files.readString(manifests.resolve("webhooks.yaml")).contains("widgets.example.com/policy: enforced"),
                "the Widget policy's namespace selector");

        mojo.image = null; // the next build has no image: its webhooks are left out, and the earlier files must not stay
        mojo.execute();
        assertEquals(List.of("crds.yaml", "install.yaml", "kustomization.yaml", "rbac.yaml"),
                Files.list(manifests).map(file -> file.getFileName().toString()).sorted().toList());
        assertTrue(Files.readString(manifests.resolve("kustomization.yaml")).startsWith("# the admission webhooks of [WidgetPolicy]"));
    }

    @Test
    void aWrongSettingFailsTheBuildNamingIt() throws Exception {
        ManifestsMojo mojo = mojo(classes());
        mojo.name = "widgets";
        MojoFailureException failure = assertThrows(MojoFailureException.class, mojo::execute);
        // the option named as the plugin's setting too
        assertTrue(failure.getMessage().contains("--name (Maven: mooring.manifests.name) and --namespace (Maven:"
                + " mooring.manifests.namespace) go together"), failure.getMessage());
    }
}
