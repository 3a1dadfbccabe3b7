package dev.mooring.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The Kubernetes API server the tests of one JVM share: Mooring's local API server (unpacked
 * from this jar into {@code ~/.cache/mooring/local-apiserver/<version>} and started on free
 * ports), or the cluster of {@code MOORING_TEST_KUBECONFIG}. Closed, and stopped, when the JVM's
 * tests are done.
 */
final class LocalApiServer implements ExtensionContext.Store.CloseableResource {

    private final Path kubeconfig;
    private final Path script;
    private final Path runDir;

    private LocalApiServer(Path kubeconfig, Path script, Path runDir) {
        this.kubeconfig = kubeconfig;
        this.script = script;
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
        String given = System.getenv("MOORING_TEST_KUBECONFIG");
        if (given != null && !given.isBlank()) {
            return new LocalApiServer(Path.of(given), null, null);
        }
        try {
            Path tools = unpack();
            Path runDir = Path.of("target", "mooring-test", "apiserver-" + ProcessHandle.current().pid()).toAbsolutePath();
            run(tools.resolve("local-apiserver.sh"), "up", runDir.toString());
            return new LocalApiServer(runDir.resolve("admin.kubeconfig"), tools.resolve("local-apiserver.sh"), runDir);
        } catch (IOException e) {
            throw new IllegalStateException("Mooring's local API server did not start: " + e.getMessage()
                    + " (set MOORING_TEST_KUBECONFIG to test against another cluster)", e);
        }
    }

    @Override
    public void close() throws IOException {
        if (script != null) {
            run(script, "down", runDir.toString());
        }
    }

    /** This jar's local API server scripts and sources, unpacked once per version. */
    private static Path unpack() throws IOException {
        Properties versions = new Properties();
        try (InputStream in = LocalApiServer.class.getResourceAsStream("mooring-test.properties")) {
            versions.load(in);
        }
        String version = versions.getProperty("version");
        Path target = cache().resolve("local-apiserver").resolve(version);
        Files.createDirectories(target.getParent());
        byte[] zip;
        try (InputStream in = LocalApiServer.class.getResourceAsStream("local-apiserver.zip")) {
            if (in == null) {
                throw new IOException("mooring-test lacks local-apiserver.zip");
            }
            zip = in.readAllBytes();
        }
        String stamp = sha256(zip); // the same stamp as mooring:run's, which unpacks the same zip here
        try (RandomAccessFile lockFile = new RandomAccessFile(target.getParent().resolve(".lock").toFile(), "rw");
                FileLock lock = lockFile.getChannel().lock()) {
            Path stampFile = target.resolve(".unpacked-from");
            if (Files.isRegularFile(stampFile) && Files.readString(stampFile).equals(stamp)) {
                return target;
            }
            Path temporary = Files.createTempDirectory(target.getParent(), ".unpack");
            try (ZipInputStream entries = new ZipInputStream(new java.io.ByteArrayInputStream(zip))) {
                for (ZipEntry entry = entries.getNextEntry(); entry != null; entry = entries.getNextEntry()) {
                    Path file = temporary.resolve(entry.getName()).normalize();
                    if (!file.startsWith(temporary)) {
                        throw new IOException("bad entry " + entry.getName());
                    }
                    if (entry.isDirectory()) {
                        Files.createDirectories(file);
                        continue;
                    }
                    Files.createDirectories(file.getParent());
                    Files.copy(entries, file, StandardCopyOption.REPLACE_EXISTING);
                    if (file.toString().endsWith(".sh") || file.toString().endsWith(".py")) {
                        file.toFile().setExecutable(true);
                    }
                }
            }
            deleteRecursively(target);
            Files.move(temporary, target);
            Files.writeString(stampFile, stamp);
            return target;
        }
    }

    private static void run(Path script, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("MOORING_CACHE", cache().toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                throw new IOException(script.getFileName() + " " + String.join(" ", arguments) + " failed:\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path cache() {
        String configured = System.getenv("MOORING_CACHE");
        return configured == null || configured.isBlank() ? Path.of(System.getProperty("user.home"), ".cache", "mooring")
                : Path.of(configured);
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (var walk = Files.walk(path)) {
            for (Path file : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
