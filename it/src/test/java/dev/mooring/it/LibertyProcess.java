package dev.mooring.it;

import dev.mooring.stack.FreePorts;
import dev.mooring.stack.LibertyRuntime;
import dev.mooring.stack.LibertyServer;
import dev.mooring.test.Eventually;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A Liberty server with an EAR, written by the local stack's launcher and started outside Arquillian. */
final class LibertyProcess {

    final String name;
    final int port;
    final int httpsPort;
    final Path usr;
    private final Path wlp = Path.of(System.getProperty("mooring.it.wlp.home"));
    private final Map<String, String> environment;

    private LibertyProcess(String name, int port, int httpsPort, Path usr, Map<String, String> environment) {
        this.name = name;
        this.port = port;
        this.httpsPort = httpsPort;
        this.usr = usr;
        this.environment = environment;
    }

    /**
     * Creates server {@code name} under {@code usr} with free ports, the bootstrap properties
     * given and {@code ear} in dropins, starts it, and waits until it is live.
     */
    static LibertyProcess start(String name, Path usr, Path ear, Map<String, String> environment, String... properties)
            throws Exception {
        return start(name, usr, ear, environment, Map.of(), properties);
    }

    /** Like {@link #start(String, Path, Path, Map, String...)}, with {@code overrides} (file name to XML) in configDropins/overrides. */
    static LibertyProcess start(String name, Path usr, Path ear, Map<String, String> environment, Map<String, String> overrides,
            String... properties) throws Exception {
        LibertyProcess server = create(name, usr, ear, environment, overrides, properties);
        server.command("start");
        server.awaitLive();
        return server;
    }

    void awaitLive() throws Exception {
        Eventually.await(name + " live", Duration.ofSeconds(120), () -> get("/health/live"),
                answer -> answer.status() == 200 || answer.status() == 503);
    }

    /**
     * Launches {@code server checkpoint --at=afterAppStart} in the background (with the bootstrap
     * property {@code io.openliberty.checkpoint.stub.criu=true} on a JVM without CRIU, the server
     * goes on running as restored); its output goes to {@code output}.
     */
    Process checkpointAfterAppStart(Path output) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(wlp.resolve("bin/server").toString(), "checkpoint", name, "--at=afterAppStart");
        builder.environment().put("WLP_USER_DIR", usr.toString());
        builder.environment().putAll(environment);
        return builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    /** Writes server {@code name} under {@code usr} (free ports, the bootstrap properties, {@code ear} in dropins) without starting it. */
    static LibertyProcess create(String name, Path usr, Path ear, Map<String, String> environment, Map<String, String> overrides,
            String... properties) throws Exception {
        // the logs of an earlier run in the same directory are not this server's: logTime must not find them
        Path logs = usr.resolve("servers").resolve(name).resolve("logs");
        if (Files.isDirectory(logs)) {
            try (var tree = Files.walk(logs)) {
                for (Path path : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
        int[] ports = FreePorts.pick(2);
        int http = ports[0];
        int https = ports[1];
        Map<String, String> bootstrap = new LinkedHashMap<>();
        bootstrap.put("http.host", "127.0.0.1");
        for (String property : properties) {
            int equals = property.indexOf('=');
            bootstrap.put(property.substring(0, equals), property.substring(equals + 1));
        }
        LibertyServer created = LibertyRuntime.at(Path.of(System.getProperty("mooring.it.wlp.home"))).createServer(usr, name,
                LibertyRuntime.Configuration.fromFolder(Path.of(System.getProperty("mooring.it.root"), "liberty-config/src/main/liberty/config")),
                http, https, bootstrap);
        Files.copy(ear, created.dir().resolve("dropins").resolve(ear.getFileName().toString()),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        for (Map.Entry<String, String> override : overrides.entrySet()) {
            Path file = created.dir().resolve("configDropins/overrides").resolve(override.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, override.getValue());
        }
        return new LibertyProcess(name, http, https, usr, environment);
    }

    /** Bootstrap properties for the webhook certificate the tests use (for service mooring-it.default). */
    static String[] webhookTls() {
        Path tls = Path.of(System.getProperty("mooring.it.testbed"), "webhook-tls");
        return new String[] {"mooring.webhook.tls.cert-file=" + tls.resolve("tls.crt"), "mooring.webhook.tls.key-file=" + tls.resolve("tls.key")};
    }

    /** Bootstrap properties for leader election on Lease {@code namespace/lease} as {@code identity}: 6 s lease, 4 s deadline, 1 s retry. */
    static List<String> election(String identity, String namespace, String lease) {
        return List.of("mooring.leader-election.enabled=true", "mooring.leader-election.identity=" + identity,
                "mooring.leader-election.namespace=" + namespace, "mooring.leader-election.lease-name=" + lease,
                "mooring.leader-election.lease-duration=6s", "mooring.leader-election.renew-deadline=4s",
                "mooring.leader-election.retry-period=1s");
    }

    Path log() {
        return usr.resolve("servers/" + name + "/logs/messages.log");
    }

    Http.Answer get(String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        return new Http.Answer(response.statusCode(), response.body());
    }

    void command(String action, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(wlp.resolve("bin/server").toString(), action, name));
        command.addAll(List.of(options));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("WLP_USER_DIR", usr.toString());
        builder.environment().putAll(environment);
        Process process = builder.redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        process.waitFor();
    }

    void kill9() throws Exception {
        signal("KILL");
    }

    /** Sends {@code signal} (KILL, STOP, CONT...) to the server's JVM. */
    void signal(String signal) throws Exception {
        String pid = Files.readString(usr.resolve("servers/.pid/" + name + ".pid")).trim();
        new ProcessBuilder("kill", "-" + signal, pid).start().waitFor();
    }

    /** The wall-clock time (epoch ms) of the first log line containing {@code text}, from Liberty's UTC timestamp. */
    long logTime(String text) throws Exception {
        // the rolled logs first (messages_<date>.log, as after a restore from a checkpoint), oldest first
        List<Path> logs;
        try (var files = Files.list(log().getParent())) {
            logs = new ArrayList<>(files.filter(file -> file.getFileName().toString().startsWith("messages_")).sorted().toList());
        }
        logs.add(log());
        for (Path file : logs) {
            for (String line : Files.readString(file).split("\n")) {
                if (line.contains(text) && line.startsWith("[")) {
                    return lineTime(line);
                }
            }
        }
        throw new AssertionError("no '" + text + "' in " + logs);
    }

    /** The wall-clock time (epoch ms) of a line of messages.log, from Liberty's UTC timestamp. */
    static long lineTime(String line) {
        DateTimeFormatter format = DateTimeFormatter.ofPattern("M/d/yy, H:mm:ss:SSS").withZone(ZoneOffset.UTC);
        return Instant.from(format.parse(line.substring(1, line.indexOf(" UTC]")))).toEpochMilli();
    }
}
