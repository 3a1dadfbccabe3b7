package dev.mooring.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Starts and stops instances of Mooring's local Kubernetes API server (upstream
 * k8s.io/apiserver and etcd, built once from Debian's packages into the cache) through its
 * {@code local-apiserver.sh}: from a checkout's {@code local-apiserver} folder, or from the
 * {@code local-apiserver} zip of a release, unpacked into the cache. Each instance lives in a run
 * folder of its own, on free loopback ports.
 */
public final class ApiServerLauncher {

    /** The cache part the zip is unpacked into. */
    public static final String PART = "local-apiserver";

    private final Path folder;
    private final StackCache cache;
    private final Consumer<String> output;

    private ApiServerLauncher(Path folder, StackCache cache, Consumer<String> output) {
        this.folder = folder;
        this.cache = cache;
        this.output = output;
    }

    /**
     * The launcher of a folder holding {@code local-apiserver.sh} and its {@code testbed}.
     *
     * @param output receives each line the scripts print
     * @throws IllegalArgumentException when the folder has no {@code local-apiserver.sh}
     */
    public static ApiServerLauncher fromFolder(Path folder, StackCache cache, Consumer<String> output) {
        if (!Files.isRegularFile(folder.resolve("local-apiserver.sh"))) {
            throw new IllegalArgumentException(folder + " has no local-apiserver.sh");
        }
        return new ApiServerLauncher(folder.toAbsolutePath(), cache, output);
    }

    /**
     * The launcher of a {@code local-apiserver} zip of {@code version}, unpacked into the cache
     * once per content.
     *
     * @throws IOException when the zip cannot be unpacked
     */
    public static ApiServerLauncher fromZip(Path zip, String version, StackCache cache, Consumer<String> output) throws IOException {
        return fromFolder(cache.unpacked(zip, PART, version), cache, output);
    }

    /**
     * Writes a serving certificate for admission webhooks into {@code directory} ({@code tls.crt},
     * {@code tls.key}, {@code ca.crt}): for {@code service.namespace.svc} and localhost, signed by
     * the CA of {@code signer} (which then trusts it), or by a CA of its own when {@code signer} is
     * null (for another cluster).
     *
     * @throws IOException carrying the script's output when it fails
     */
    public Path webhookCertificate(Path directory, String service, String namespace, RunningApiServer signer) throws IOException {
        // a release zip carries webhook-tls.sh beside local-apiserver.sh; a checkout keeps it in scripts/
        Path script = Files.isRegularFile(folder.resolve("webhook-tls.sh")) ? folder.resolve("webhook-tls.sh")
                : folder.resolveSibling("scripts").resolve("webhook-tls.sh");
        List<String> command = new ArrayList<>(List.of("bash", script.toString(), directory.toAbsolutePath().toString(), service, namespace));
        if (signer != null) {
            command.add(signer.caCertificate().toString());
            command.add(signer.caKey().toString());
        }
        Commands.run(command, cache.environment(), output);
        return directory;
    }

    /**
     * Builds the API server if the cache lacks it, then starts an instance in {@code runDir}
     * with the extra API server {@code flags}; returns once it serves.
     *
     * @throws IOException carrying the scripts' output when the build or the start fails
     */
    public RunningApiServer up(Path runDir, String... flags) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("up", runDir.toAbsolutePath().toString()));
        arguments.addAll(List.of(flags));
        script(arguments, Map.of());
        return RunningApiServer.in(runDir);
    }

    /**
     * Starts the stopped instance of {@code runDir} again on {@code port}, with the objects it
     * held (etcd's data is kept; etcd itself gets free ports again).
     *
     * @throws IOException carrying the scripts' output when the start fails
     */
    public RunningApiServer restart(Path runDir, int port, String... flags) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("up", runDir.toAbsolutePath().toString()));
        arguments.addAll(List.of(flags));
        script(arguments, Map.of("PORT", Integer.toString(port), "FRESH", "0"));
        return RunningApiServer.in(runDir);
    }

    /**
     * Stops the instance of {@code runDir} (nothing when none runs there).
     *
     * @throws IOException carrying the script's output when it fails
     */
    public void down(Path runDir) throws IOException {
        script(List.of("down", runDir.toAbsolutePath().toString()), Map.of());
    }

    /**
     * A bearer token of ServiceAccount {@code namespace/name} on the instance of {@code runDir}
     * (created with the account when missing).
     *
     * @throws IOException when the instance gives none
     */
    public String token(Path runDir, String namespace, String name) throws IOException {
        Map<String, String> environment = new HashMap<>(cache.environment());
        environment.put("RUN_DIR", runDir.toAbsolutePath().toString());
        String token = Commands.capture(List.of("bash", folder.resolve("testbed/run.sh").toString(), "token", namespace, name),
                environment).trim();
        if (token.isEmpty() || token.contains("\n")) {
            throw new IOException("no token for " + namespace + "/" + name + ": " + token);
        }
        return token;
    }

    private void script(List<String> arguments, Map<String, String> extra) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", folder.resolve("local-apiserver.sh").toString()));
        command.addAll(arguments);
        Map<String, String> environment = new HashMap<>(cache.environment());
        environment.putAll(extra);
        Commands.run(command, environment, output);
    }
}
