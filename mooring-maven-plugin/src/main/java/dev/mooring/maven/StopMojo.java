package dev.mooring.maven;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/** {@code mooring:stop}: stops the local API server {@code mooring:start} started, bound to {@code post-integration-test}. */
@Mojo(name = "stop", defaultPhase = LifecyclePhase.POST_INTEGRATION_TEST, threadSafe = false)
public class StopMojo extends ResolvingMojo {

    /** Where mooring:start put its files. */
    @Parameter(property = "mooring.test.directory", defaultValue = "${project.build.directory}/mooring-test")
    File directory;

    @Override
    public void execute() throws MojoExecutionException {
        Path state = directory.toPath().resolve("state.properties");
        if (!Files.isRegularFile(state)) {
            return;
        }
        Properties started = new Properties();
        try (InputStream in = Files.newInputStream(state)) {
            started.load(in);
            String apiserver = started.getProperty("apiserver");
            if (apiserver != null) {
                localStack().stopApiServer(Path.of(apiserver));
            }
            Files.delete(state);
        } catch (IOException e) {
            throw new MojoExecutionException("mooring:stop: " + e.getMessage(), e);
        }
    }
}
