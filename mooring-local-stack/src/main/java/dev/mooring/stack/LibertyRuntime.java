package dev.mooring.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An Open Liberty runtime installed into the cache from its {@code openliberty-runtime} zip (once
 * per version and content), and the servers made with it for Mooring.
 */
public final class LibertyRuntime {

    /** The cache part the runtime is unpacked into. */
    public static final String PART = "liberty";

    /** Writes a server's configuration files ({@code server.xml}, {@code jvm.options}, {@code bootstrap.properties}) into its folder. */
    @FunctionalInterface
    public interface Configuration {

        void writeTo(Path serverDir) throws IOException;

        /** The three files copied from {@code folder} (a checkout's {@code liberty-config/src/main/liberty/config}). */
        static Configuration fromFolder(Path folder) {
            return serverDir -> {
                for (String name : List.of("server.xml", "jvm.options", "bootstrap.properties")) {
                    Files.copy(folder.resolve(name), serverDir.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            };
        }
    }

    private final Path home;

    private LibertyRuntime(Path home) {
        this.home = home;
    }

    /**
     * The runtime of {@code zip} (Open Liberty {@code version}), unpacked into the cache when
     * it is not already there.
     *
     * @throws IOException when the zip cannot be unpacked or holds no {@code wlp/bin/server}
     */
    public static LibertyRuntime install(Path zip, String version, StackCache cache) throws IOException {
        Path home = cache.unpacked(zip, PART, version).resolve("wlp");
        if (!Files.isExecutable(home.resolve("bin/server"))) {
            throw new IOException(zip.getFileName() + " holds no executable wlp/bin/server");
        }
        return new LibertyRuntime(home);
    }

    /** A runtime already installed at {@code home} (its {@code wlp} folder). */
    public static LibertyRuntime at(Path home) {
        return new LibertyRuntime(home);
    }

    /** The {@code wlp} folder. */
    public Path home() {
        return home;
    }

    /**
     * Writes server {@code name} under {@code usr}: its {@code configuration}, then a fixed heap
     * of 512 MB (a local server shares the machine), plain console lines, the two ports and the
     * extra {@code bootstrap} properties in order; empty {@code dropins}, {@code apps} and
     * {@code configDropins/overrides} folders. A server already there keeps its other files (its
     * logs, its workarea).
     *
     * @throws IOException when the folder cannot be written
     */
    public LibertyServer createServer(Path usr, String name, Configuration configuration, int httpPort, int httpsPort,
            Map<String, String> bootstrap) throws IOException {
        Path dir = usr.toAbsolutePath().resolve("servers").resolve(name);
        for (String folder : List.of("dropins", "apps", "configDropins/overrides")) {
            Files.createDirectories(dir.resolve(folder));
        }
        configuration.writeTo(dir);
        Files.writeString(dir.resolve("jvm.options"), "\n-Xmx512m\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        List<String> properties = new ArrayList<>(List.of("",
                "com.ibm.ws.logging.console.format=simple",
                "com.ibm.ws.logging.console.log.level=INFO",
                "http.port=" + httpPort,
                "https.port=" + httpsPort));
        bootstrap.forEach((key, value) -> properties.add(key + "=" + value));
        properties.add("");
        Files.writeString(dir.resolve("bootstrap.properties"), String.join("\n", properties), StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        return new LibertyServer(home, usr.toAbsolutePath(), name, httpPort, httpsPort);
    }
}
