package dev.mooring.maven;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.project.MavenProject;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.resolution.ArtifactRequest;
import org.eclipse.aether.resolution.ArtifactResolutionException;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.resolution.DependencyResolutionException;

/** What goes into an operator's application, resolved through Maven's own resolver. */
final class OperatorParts {

    private final RepositorySystem system;
    private final RepositorySystemSession session;
    private final List<RemoteRepository> repositories;

    OperatorParts(RepositorySystem system, RepositorySystemSession session, List<RemoteRepository> repositories) {
        this.system = system;
        this.session = session;
        this.repositories = repositories;
    }

    /** The layout of the operator: Mooring's runtime of {@code version}, and the module's own code at {@code code} (a jar or a classes folder). */
    EarLayout layout(MavenProject project, String mooringGroup, String version, Path code) throws MojoExecutionException {
        try {
            EarLayout.requireBeansXml(code, project.getArtifactId());
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        List<EarLayout.Part> author = new ArrayList<>();
        author.add(new EarLayout.Part(project.getGroupId(), project.getArtifactId(), project.getVersion(), "jar", code));
        for (Artifact artifact : project.getArtifacts()) {
            if ((Artifact.SCOPE_COMPILE.equals(artifact.getScope()) || Artifact.SCOPE_RUNTIME.equals(artifact.getScope()))
                    && "jar".equals(artifact.getArtifactHandler().getExtension())) {
                author.add(new EarLayout.Part(artifact.getGroupId(), artifact.getArtifactId(), artifact.getBaseVersion(), "jar",
                        artifact.getFile().toPath()));
            }
        }
        try {
            return new EarLayout(project.getArtifactId(), runtime(mooringGroup + ":mooring-runtime:pom:" + version), author);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
    }

    /** One artifact's file, such as {@code dev.mooring:local-apiserver:zip:1.0}. */
    Path file(String coordinates) throws MojoExecutionException {
        try {
            return system.resolveArtifact(session, new ArtifactRequest(new DefaultArtifact(coordinates), repositories, null))
                    .getArtifact().getFile().toPath();
        } catch (ArtifactResolutionException e) {
            throw new MojoExecutionException("cannot resolve " + coordinates + ": " + e.getMessage(), e);
        }
    }

    /** Mooring's runtime with its runtime dependencies. */
    private List<EarLayout.Part> runtime(String coordinates) throws MojoExecutionException {
        CollectRequest collect = new CollectRequest(new Dependency(new DefaultArtifact(coordinates), "runtime"), repositories);
        DependencyRequest request = new DependencyRequest(collect, (node, parents) -> node.getDependency() == null
                || !List.of("test", "provided", "system").contains(node.getDependency().getScope()));
        try {
            List<EarLayout.Part> parts = new ArrayList<>();
            for (ArtifactResult result : system.resolveDependencies(session, request).getArtifactResults()) {
                org.eclipse.aether.artifact.Artifact artifact = result.getArtifact();
                if (!artifact.getExtension().equals("pom")) {
                    parts.add(new EarLayout.Part(artifact.getGroupId(), artifact.getArtifactId(), artifact.getBaseVersion(),
                            artifact.getExtension(), artifact.getFile().toPath()));
                }
            }
            return parts;
        } catch (DependencyResolutionException e) {
            throw new MojoExecutionException("cannot resolve Mooring's runtime " + coordinates + ": " + e.getMessage(), e);
        }
    }
}
