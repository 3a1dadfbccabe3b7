package dev.mooring.stack;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * An instance of the local API server, as its run folder describes it: the admin kubeconfig,
 * the port, the CA that signs its certificates (and may sign webhook certificates it trusts).
 *
 * @param runDir the instance's folder
 * @param environment its {@code testbed.env} (the port as {@code TESTBED_PORT}, among others)
 */
public record RunningApiServer(Path runDir, Properties environment) {

    /**
     * The instance of {@code runDir}.
     *
     * @throws IOException when the folder has no {@code testbed.env} (no instance was started there)
     */
    public static RunningApiServer in(Path runDir) throws IOException {
        Properties environment = new Properties();
        try (Reader reader = Files.newBufferedReader(runDir.resolve("testbed.env"))) {
            environment.load(reader);
        }
        return new RunningApiServer(runDir.toAbsolutePath(), environment);
    }

    public Path kubeconfig() {
        return runDir.resolve("admin.kubeconfig");
    }

    /** The API server's HTTPS port on the loopback interface. */
    public int port() {
        return Integer.parseInt(environment.getProperty("TESTBED_PORT"));
    }

    public Path caCertificate() {
        return runDir.resolve("certs/ca.crt");
    }

    public Path caKey() {
        return runDir.resolve("certs/ca.key");
    }
}
