package dev.mooring.maven;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProjectHelper;

/**
 * {@code mooring:ear}: the operator's EAR, ready for Liberty's {@code dropins} or {@code apps}:
 * Mooring's runtime ({@code dev.mooring:mooring-runtime} of the plugin's version: the EJB and web
 * modules and their libraries), the module's jar and its compile and runtime dependencies in
 * {@code lib/}. Bound to {@code package}, after the jar; a jar-packaged module is all an operator
 * needs. Entries are written in a stable order with a fixed time, so an unchanged build gives an
 * identical file. The EAR is attached to the project (type {@code ear}): {@code mvn install} and
 * {@code mvn deploy} publish it beside the jar.
 */
@Mojo(name = "ear", defaultPhase = LifecyclePhase.PACKAGE, requiresDependencyResolution = ResolutionScope.RUNTIME,
        threadSafe = true)
public class EarMojo extends ResolvingMojo {

    /** 2000-01-01T00:00:00Z: entries carry no build time. */
    static final FileTime FIXED_TIME = FileTime.fromMillis(946_684_800_000L);

    /** The EAR file written. */
    @Parameter(property = "mooring.ear.file", defaultValue = "${project.build.directory}/${project.build.finalName}.ear")
    File earFile;

    /** Where Mooring's Liberty server configuration (server.xml, jvm.options, bootstrap.properties) is written, for the image. */
    @Parameter(property = "mooring.ear.liberty-config", defaultValue = "${project.build.directory}/liberty/config")
    File libertyConfig;

    @Component
    MavenProjectHelper projectHelper;

    /** The files of Mooring's Liberty server configuration. */
    static final List<String> LIBERTY_CONFIG = List.of("server.xml", "jvm.options", "bootstrap.properties");

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        File jar = project.getArtifact().getFile();
        if (jar == null || !jar.isFile()) {
            throw new MojoFailureException("mooring:ear packs the module's jar, and there is none yet: run it in the package"
                    + " phase of a jar module (mvn package), not on its own");
        }
        EarLayout layout;
        try {
            layout = parts().layout(project, plugin.getGroupId(), plugin.getVersion(),
                    jar.toPath());
        } catch (MojoExecutionException e) {
            throw new MojoExecutionException("mooring:ear: " + e.getMessage(), e);
        }
        for (String replaced : layout.replaced()) {
            getLog().warn("mooring:ear leaves out " + replaced);
        }
        try {
            write(layout, earFile.toPath());
        } catch (IOException e) {
            throw new MojoExecutionException("mooring:ear could not write " + earFile + ": " + e.getMessage(), e);
        }
        try {
            writeLibertyConfig(libertyConfig.toPath());
        } catch (IOException e) {
            throw new MojoExecutionException("mooring:ear could not write " + libertyConfig + ": " + e.getMessage(), e);
        }
        // attached, so that install and deploy publish the EAR beside the jar (type ear, no classifier)
        projectHelper.attachArtifact(project, "ear", earFile);
        getLog().info("Wrote " + earFile + " (" + layout.entries().size() + " modules and libraries) and the server configuration in "
                + libertyConfig);
    }

    static void writeLibertyConfig(Path directory) throws IOException {
        Files.createDirectories(directory);
        for (String name : LIBERTY_CONFIG) {
            try (java.io.InputStream in = EarMojo.class.getResourceAsStream("liberty/" + name)) {
                if (in == null) {
                    throw new IOException("the plugin lacks its copy of " + name);
                }
                Files.copy(in, directory.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    static void write(EarLayout layout, Path ear) throws IOException {
        Files.createDirectories(ear.toAbsolutePath().getParent());
        Path partial = ear.resolveSibling(ear.getFileName() + ".partial");
        try (OutputStream file = Files.newOutputStream(partial); ZipOutputStream zip = new ZipOutputStream(file)) {
            put(zip, "META-INF/application.xml", layout.applicationXml().getBytes(StandardCharsets.UTF_8));
            for (Map.Entry<String, Path> entry : new TreeMap<>(layout.entries()).entrySet()) {
                put(zip, entry.getKey(), Files.readAllBytes(entry.getValue()));
            }
        }
        Files.move(partial, ear, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static void put(ZipOutputStream zip, String name, byte[] content) throws IOException {
        ZipEntry entry = new ZipEntry(name);
        entry.setLastModifiedTime(FIXED_TIME);
        zip.putNextEntry(entry);
        zip.write(content);
        zip.closeEntry();
    }
}
