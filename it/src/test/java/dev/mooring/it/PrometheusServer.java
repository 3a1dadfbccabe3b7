package dev.mooring.it;

import dev.mooring.stack.FreePorts;
import dev.mooring.test.Eventually;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real Prometheus (Debian's package, installed into the cache by {@code scripts/prometheus.sh})
 * on a free loopback port, with its data in a folder of the test's; and its promtool.
 */
final class PrometheusServer implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final int port;

    private PrometheusServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** The folder holding {@code prometheus} and {@code promtool}, installed if needed. */
    static Path bin() throws Exception {
        Path script = Path.of(System.getProperty("mooring.it.root"), "scripts/prometheus.sh");
        Process install = new ProcessBuilder("bash", script.toString(), "bin").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(install.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (install.waitFor() != 0) {
            throw new AssertionError("scripts/prometheus.sh bin failed");
        }
        return Path.of(out.lines().reduce((first, last) -> last).orElseThrow());
    }

    /** Runs {@code promtool} with these arguments; its output, after asserting it succeeded. */
    static String promtool(Path bin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(bin.resolve("promtool").toString()));
        command.addAll(List.of(args));
        Process tool = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(tool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (tool.waitFor() != 0) {
            throw new AssertionError("promtool " + String.join(" ", args) + " failed:\n" + out);
        }
        return out;
    }

    /** Starts Prometheus with {@code config} (in {@code dir}, which also holds its data), and waits until it is ready. */
    static PrometheusServer start(Path bin, Path dir, Path config) throws Exception {
        int port = FreePorts.pick(1)[0];
        Path data = Files.createDirectories(dir.resolve("data"));
        Process process = new ProcessBuilder(bin.resolve("prometheus").toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + data, "--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        PrometheusServer server = new PrometheusServer(process, port);
        Eventually.await("Prometheus ready (log: " + dir.resolve("prometheus.log") + ")", Duration.ofSeconds(60),
                () -> server.status("/-/ready"), status -> status == 200);
        return server;
    }

    private int status(String path) throws Exception {
        if (!process.isAlive()) {
            throw new AssertionError("Prometheus exited with " + process.exitValue());
        }
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private JsonObject api(String pathAndQuery) throws Exception {
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        JsonObject body = Json.createReader(new StringReader(answer.body())).readObject();
        if (!"success".equals(body.getString("status"))) {
            throw new AssertionError(pathAndQuery + ": " + answer.body());
        }
        return body.getJsonObject("data");
    }

    private static String encoded(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /** The instant vector (or scalar) an expression evaluates to now: its {@code result} array. */
    JsonArray query(String expression) throws Exception {
        JsonObject data = api("/api/v1/query?query=" + encoded(expression));
        return "scalar".equals(data.getString("resultType")) ? Json.createArrayBuilder().add(data.get("result")).build()
                : data.getJsonArray("result");
    }

    /** The series that match a selector. */
    JsonArray series(String selector) throws Exception {
        return Json.createReader(new StringReader(HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/series?match%5B%5D=" + encoded(selector))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body())).readObject().getJsonArray("data");
    }

    /** The state of alert {@code name} now ({@code pending} or {@code firing}), or {@code inactive} when it is not active. */
    String alert(String name) throws Exception {
        for (JsonObject alert : api("/api/v1/alerts").getJsonArray("alerts").getValuesAs(JsonObject.class)) {
            if (name.equals(alert.getJsonObject("labels").getString("alertname"))) {
                return alert.getString("state");
            }
        }
        return "inactive";
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
