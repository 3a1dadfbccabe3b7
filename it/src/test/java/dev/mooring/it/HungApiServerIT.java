package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.test.Eventually;
import io.kubernetes.client.util.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A hung API server (its process stopped with SIGSTOP: the TCP connections stay open, nothing
 * answers) is reported within {@link #BOUND} in the log, the {@code mooring_informer_connected}
 * gauge and the health data, and the operator converges once it resumes. Killing the server is
 * seen at once (the connection closes); a hang was not seen for 90 s before connections were
 * pinged. Its own API server (free ports), so that the other tests' server never stops.
 */
class HungApiServerIT {

    /** Two ping intervals (5 s each by default), and a margin for a busy machine. */
    static final Duration BOUND = Duration.ofSeconds(20);
    private static final Duration PAUSE = Duration.ofSeconds(60);

    private final Path runDir = Path.of(System.getProperty("mooring.it.failover.dir"), "hung-testbed");
    private LibertyProcess server;
    private String pid;

    @AfterEach
    void stop() throws Exception {
        if (pid != null) {
            signal("CONT");
        }
        if (server != null) {
            server.command("stop");
        }
        Testbed.down(runDir);
    }

    @Test
    void aHungApiServerIsReportedWithinTheBoundAndTheOperatorConvergesAfter() throws Exception {
        Testbed.up(runDir);
        Path kubeconfig = runDir.resolve("admin.kubeconfig");
        KubeHttp http = new KubeHttp(Config.fromConfig(kubeconfig.toString()));
        String namespace = "hung";
        http.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + namespace + "\"}}", "application/json");
        Path ear = Path.of(System.getProperty("mooring.it.failover.dir"), "hung", "mooring.ear");
        Files.createDirectories(ear.getParent());
        Files.copy(Path.of(System.getProperty("mooring.it.ear")), ear, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String[] properties = java.util.stream.Stream.concat(java.util.stream.Stream.of(LibertyProcess.webhookTls()),
                java.util.stream.Stream.of("mooring.namespace=" + namespace)).toArray(String[]::new);
        server = LibertyProcess.start("hung", Path.of(System.getProperty("mooring.it.failover.dir"), "hung", "usr"), ear,
                Map.of("KUBECONFIG", kubeconfig.toString()), properties);
        Eventually.await("the informers connected", Duration.ofSeconds(120), () -> gauge(), value -> value != null && value == 1.0);
        mirror(http, namespace, "before");

        pid = Files.readString(runDir.resolve("apiserver.pid")).trim();
        signal("STOP");
        long paused = System.nanoTime();
        Eventually.await("the hang reported in the gauge", BOUND.plusSeconds(10), () -> gauge(), value -> value != null && value == 0.0);
        Duration seen = Duration.ofNanos(System.nanoTime() - paused);
        assertTrue(seen.compareTo(BOUND) <= 0, "the gauge showed the hang after " + seen.toMillis() + " ms");
        String ready = server.get("/health/ready").body();
        assertTrue(ready.contains("disconnected since"), ready);
        String log = Files.readString(server.log());
        assertTrue(log.lines().anyMatch(line -> line.contains(" W ") && line.contains("Watch of ConfigMap")), "no WARNING in the log");

        Thread.sleep(Math.max(0, PAUSE.toMillis() - Duration.ofNanos(System.nanoTime() - paused).toMillis()));
        signal("CONT");
        pid = null;
        Eventually.await("the informers connected again", Duration.ofSeconds(90), () -> gauge(), value -> value != null && value == 1.0);
        assertTrue(server.get("/health/ready").body().contains("\"connected\""), "health data says connected again");
        mirror(http, namespace, "after");
    }

    /** A labelled ConfigMap is mirrored by the operator. */
    private static void mirror(KubeHttp http, String namespace, String name) throws Exception {
        http.send("POST", "/api/v1/namespaces/" + namespace + "/configmaps", Map.of(), "{\"metadata\":{\"name\":\"" + name + "\","
                + "\"labels\":{\"example.com/mirror\":\"true\"}},\"data\":{\"k\":\"" + name + "\"}}", "application/json");
        Eventually.await(name + " mirrored", Duration.ofSeconds(90),
                () -> http.getOptional("/api/v1/namespaces/" + namespace + "/configmaps/" + name + "-mirror", Map.of()).isPresent());
        assertEquals(name, http.get("/api/v1/namespaces/" + namespace + "/configmaps/" + name + "-mirror", Map.of())
                .getAsJsonObject("data").get("k").getAsString());
    }

    /** The informers' connected gauge (the lowest if there are several), or null while /metrics has none. */
    private Double gauge() throws Exception {
        Map<String, Double> samples = Prometheus.parse(server.get("/metrics").body());
        return samples.entrySet().stream().filter(sample -> sample.getKey().startsWith("mooring_informer_connected{"))
                .map(Map.Entry::getValue).min(Double::compare).orElse(null);
    }

    private void signal(String name) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + name, pid).inheritIO().start().waitFor(), "kill -" + name + " " + pid);
    }
}
