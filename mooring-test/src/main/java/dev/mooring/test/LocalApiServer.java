package dev.mooring.test;

import dev.mooring.stack.ApiServerLauncher;
import dev.mooring.stack.StackCache;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The Kubernetes API server the tests of one JVM share: Mooring's local API server (this jar's
 * copy of its zip, unpacked by the local stack into
 * {@code ~/.cache/mooring/local-apiserver/<version>} and started on free ports), or the cluster
 * of {@code MOORING_KUBECONFIG} (else {@code MOORING_TEST_KUBECONFIG}). Closed, and stopped, when the JVM's tests are done.
 */
final class LocalApiServer implements ExtensionContext.Store.CloseableResource {

    private final Path kubeconfig;
    private final ApiServerLauncher launcher;
    private final Path runDir;

    private LocalApiServer(Path kubeconfig, ApiServerLauncher launcher, Path runDir) {
        this.kubeconfig = kubeconfig;
        this.launcher = launcher;
        this.runDir = runDir;
    }

    /** The shared server of this test run, started on first use. */
    static LocalApiServer shared(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.create(LocalApiServer.class))
                .getOrComputeIfAbsent("server", key -> start(), LocalApiServer.class);
    }

    Path kubeconfig() {
        return kubeconfig;
    }

    private static LocalApiServer start() {
        java.util.Optional<Path> given = dev.mooring.stack.GivenCluster.kubeconfig(System.getenv(), "MOORING_TEST_KUBECONFIG");
        if (given.isPresent()) {
            return new LocalApiServer(given.get(), null, null);
        }
        try {
            Path runDir = Path.of("target", "mooring-test", "apiserver-" + ProcessHandle.current().pid()).toAbsolutePath();
            ApiServerLauncher launcher = launcher(runDir.getParent());
            return new LocalApiServer(launcher.up(runDir).kubeconfig(), launcher, runDir);
        } catch (IOException e) {
            throw new IllegalStateException("Mooring's local API server did not start: " + e.getMessage()
                    + " (set MOORING_KUBECONFIG to test against another cluster)", e);
        }
    }

    @Override
    public void close() throws IOException {
        if (launcher != null) {
            launcher.down(runDir);
        }
    }

    /** The launcher of this jar's local API server zip, written beside the run folders for the cache to unpack. */
    private static ApiServerLauncher launcher(Path work) throws IOException {
        Properties versions = new Properties();
        try (InputStream in = LocalApiServer.class.getResourceAsStream("mooring-test.properties")) {
            versions.load(in);
        }
        Files.createDirectories(work);
        Path zip = Files.createTempFile(work, "local-apiserver", ".zip");
        try (InputStream in = LocalApiServer.class.getResourceAsStream("local-apiserver.zip")) {
            if (in == null) {
                throw new IOException("mooring-test lacks local-apiserver.zip");
            }
            Files.copy(in, zip, StandardCopyOption.REPLACE_EXISTING);
            return ApiServerLauncher.fromZip(zip, versions.getProperty("version"), StackCache.fromEnvironment(), line -> { });
        } finally {
            Files.deleteIfExists(zip);
        }
    }
}
