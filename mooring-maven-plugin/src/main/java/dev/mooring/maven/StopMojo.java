package dev.mooring.maven;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.repository.RemoteRepository;

/** {@code mooring:stop}: stops the local API server {@code mooring:start} started, bound to {@code post-integration-test}. */
@Mojo(name = "stop", defaultPhase = LifecyclePhase.POST_INTEGRATION_TEST, threadSafe = false)
public class StopMojo extends AbstractMojo {

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    PluginDescriptor plugin;

    @Parameter(defaultValue = "${repositorySystemSession}", readonly = true, required = true)
    RepositorySystemSession session;

    @Parameter(defaultValue = "${project.remoteProjectRepositories}", readonly = true, required = true)
    List<RemoteRepository> repositories;

    @Component
    RepositorySystem repositorySystem;

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
                new LocalStack(getLog(), new OperatorParts(repositorySystem, session, repositories), plugin.getGroupId(),
                        plugin.getVersion()).stopApiServer(Path.of(apiserver));
            }
            Files.delete(state);
        } catch (IOException e) {
            throw new MojoExecutionException("mooring:stop: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("mooring:stop interrupted", e);
        }
    }
}
