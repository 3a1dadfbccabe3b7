package dev.mooring.it;

import java.net.ServerSocket;
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
import java.util.List;
import java.util.Map;

/** A Liberty server with an EAR, created by scripts/liberty.sh and started outside Arquillian. */
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
        int http;
        int https;
        try (ServerSocket a = new ServerSocket(0); ServerSocket b = new ServerSocket(0)) {
            http = a.getLocalPort();
            https = b.getLocalPort();
        }
        Path script = Path.of(System.getProperty("mooring.it.root"), "scripts/liberty.sh");
        List<String> command = new ArrayList<>(List.of("bash", script.toString(), "server", usr.toString(), name,
                Integer.toString(http), Integer.toString(https), "http.host=127.0.0.1"));
        command.addAll(List.of(properties));
        Process create = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(create.getInputStream().readAllBytes()).trim();
        if (create.waitFor() != 0) {
            throw new IllegalStateException("creating server " + name + " failed: " + output);
        }
        Files.copy(ear, usr.resolve("servers/" + name + "/dropins/" + ear.getFileName()));
        LibertyProcess server = new LibertyProcess(name, http, https, usr, environment);
        server.command("start");
        Eventually.await(name + " live", Duration.ofSeconds(120), () -> server.get("/health/live"),
                answer -> answer.status() == 200 || answer.status() == 503);
        return server;
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
        String pid = Files.readString(usr.resolve("servers/.pid/" + name + ".pid")).trim();
        new ProcessBuilder("kill", "-9", pid).start().waitFor();
    }

    /** The wall-clock time (epoch ms) of the first log line containing {@code text}, from Liberty's UTC timestamp. */
    long logTime(String text) throws Exception {
        DateTimeFormatter format = DateTimeFormatter.ofPattern("M/d/yy, H:mm:ss:SSS").withZone(ZoneOffset.UTC);
        for (String line : Files.readString(log()).split("\n")) {
            if (line.contains(text) && line.startsWith("[")) {
                return Instant.from(format.parse(line.substring(1, line.indexOf(" UTC]")))).toEpochMilli();
            }
        }
        throw new AssertionError("no '" + text + "' in " + log());
    }
}
