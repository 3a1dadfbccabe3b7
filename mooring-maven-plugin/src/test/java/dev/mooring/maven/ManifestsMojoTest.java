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

    /** What the mojo attached to the project: "type classifier file name". */
    private final List<String> attached = new java.util.ArrayList<>();

    private ManifestsMojo mojo(Path classes) {
        ManifestsMojo mojo = new ManifestsMojo();
        mojo.project = new MavenProject();
        mojo.project.getBuild().setOutputDirectory(classes.toString());
        mojo.project.getBuild().setDirectory(dir.toString());
        mojo.project.getBuild().setFinalName("widgets-operator");
        mojo.output = dir.resolve("manifests").toFile();
        mojo.projectHelper = new org.apache.maven.project.MavenProjectHelper() {
            @Override
            public void attachArtifact(MavenProject project, java.io.File file, String classifier) {
                attachArtifact(project, null, classifier, file);
            }

            @Override
            public void attachArtifact(MavenProject project, String type, java.io.File file) {
                attachArtifact(project, type, null, file);
            }

            @Override
            public void attachArtifact(MavenProject project, String type, String classifier, java.io.File file) {
                attached.add(type + " " + classifier + " " + file.getName());
            }

            @Override
            public void addResource(MavenProject project, String directory, List<String> includes, List<String> excludes) {
            }

            @Override
            public void addTestResource(MavenProject project, String directory, List<String> includes, List<String> excludes) {
            }
        };
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
        assertEquals(List.of("crds.yaml", "deployment.yaml", "install.yaml", "kustomization.yaml", "kustomizeconfig.yaml", "namespace.yaml",
                "rbac.yaml", "service.yaml", "webhooks.yaml"), Files.list(manifests).map(file -> file.getFileName().toString()).sorted().toList());
        assertTrue(Files.readString(manifests.resolve("crds.yaml")).contains("name: widgets.example.com"));
        assertTrue(Files.readString(manifests.resolve("rbac.yaml")).contains("- widgets/status"));
        assertTrue(Files.readString(manifests.resolve("deployment.yaml")).contains("image: example/widgets:1"));
        assertTrue(Files.readString(manifests.resolve("webhooks.yaml")).contains("widgets.example.com/policy: enforced"),
                "the Widget policy's namespace selector");
        assertEquals(List.of("zip manifests widgets-operator-manifests.zip"), attached, "the folder zipped and attached");
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(dir.resolve("widgets-operator-manifests.zip").toFile())) {
            assertEquals(List.of("crds.yaml", "deployment.yaml", "install.yaml", "kustomization.yaml", "kustomizeconfig.yaml", "namespace.yaml",
                    "rbac.yaml", "service.yaml", "webhooks.yaml"), zip.stream().map(java.util.zip.ZipEntry::getName).toList(),
                    "every file, in order of name");
        }

        mojo.image = null; // the next build has no image: its webhooks are left out, and the earlier files must not stay
        mojo.withoutNamespace = true; // nor a Namespace left out
        mojo.execute();
        assertEquals(List.of("crds.yaml", "install.yaml", "kustomization.yaml", "kustomizeconfig.yaml", "rbac.yaml"),
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
