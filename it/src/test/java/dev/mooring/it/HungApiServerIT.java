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
 * Routine reconnects are no readiness events, and a hung API server is reported fast: the
 * operator reaches its own API server (free ports, so that the other tests' server never stops)
 * through a proxy that first cuts every connection 50 times, while readiness is sampled and must
 * answer 200 throughout; then the API server's process is stopped with SIGSTOP (the TCP
 * connections stay open, nothing answers), and the hang is in the log, the
 * {@code mooring_informer_connected} gauge and the health data while the server is still paused
 * ({@link #PAUSE}), and the operator converges once it resumes. (Killing the server is seen at once:
 * the connection closes. A hang was not seen for 90 s before connections were pinged: seeing it
 * during the pause is what the pings do. How soon it was seen — about two ping intervals of 2 s on
 * a quiet machine — is printed, not asserted: a busy machine makes it later without making it wrong.)
 */
class HungApiServerIT {

    private static final int CUTS = 50;
    private static final Duration PAUSE = Duration.ofSeconds(60);

    private final Path runDir = Path.of(System.getProperty("mooring.it.failover.dir"), "hung-testbed");
    private LibertyProcess server;
    private String pid;
    private FreezingProxy proxy;

    @AfterEach
    void stop() throws Exception {
        if (pid != null) {
            signal("CONT");
        }
        if (proxy != null) {
            proxy.close();
        }
        if (server != null) {
            server.command("stop");
        }
        Testbed.down(runDir);
    }

    @Test
    void reconnectsLeaveReadinessAloneAndAHungApiServerIsReportedWhileItHangs() throws Exception {
        java.util.Properties env = Testbed.up(runDir);
        KubeHttp http = new KubeHttp(Config.fromConfig(runDir.resolve("admin.kubeconfig").toString()));
        String direct = env.getProperty("TESTBED_SERVER");
        proxy = new FreezingProxy(Integer.parseInt(direct.substring(direct.lastIndexOf(':') + 1)));
        Path kubeconfig = Files.writeString(runDir.resolve("proxied.kubeconfig"), Files.readString(runDir.resolve("admin.kubeconfig"))
                .replace(direct, "https://127.0.0.1:" + proxy.port()));
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
        Eventually.await("ready", Duration.ofSeconds(60), () -> server.get("/health/ready").status() == 200);
        mirror(http, namespace, "before");

        // 50 cuts of every connection, each once the operator has connected again, while readiness is sampled every 50 ms
        java.util.List<String> notReady = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean cutting = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicInteger samples = new java.util.concurrent.atomic.AtomicInteger();
        Thread sampler = new Thread(() -> {
            while (cutting.get()) {
                try {
                    Http.Answer ready = server.get("/health/ready");
                    samples.incrementAndGet();
                    if (ready.status() != 200) {
                        notReady.add(ready.status() + " " + ready.body());
                    }
                    Thread.sleep(50);
                } catch (Exception e) {
                    notReady.add(e.toString());
                }
            }
        }, "readiness-sampler");
        sampler.start();
        int accepted = proxy.accepted.size();
        for (int cut = 0; cut < CUTS; cut++) {
            int before = proxy.accepted.size();
            proxy.cutOpenConnections();
            // a forced reconnect each: the next cut waits until the operator has connected again
            Eventually.await("reconnect " + (cut + 1), Duration.ofSeconds(30), () -> proxy.accepted.size() > before);
            Thread.sleep(200);
        }
        Eventually.await("the informers connected again after the cuts", Duration.ofSeconds(60), () -> gauge(),
                value -> value != null && value == 1.0);
        cutting.set(false);
        sampler.join();
        assertTrue(proxy.accepted.size() - accepted >= CUTS, "the operator reconnected " + (proxy.accepted.size() - accepted) + " times");
        assertTrue(samples.get() > CUTS, "readiness sampled " + samples.get() + " times");
        assertEquals(java.util.List.of(), notReady, "readiness changed over routine reconnects");
        mirror(http, namespace, "between");

        pid = Files.readString(runDir.resolve("apiserver.pid")).trim();
        long logLinesBefore = Files.readAllLines(server.log()).size();
        long pausedAt = System.currentTimeMillis();
        signal("STOP");
        long paused = System.nanoTime();
        // while the API server stays paused: the pings, not its return, end the hung connections
        Eventually.await("the hang reported in the gauge while the API server is paused", PAUSE.minusSeconds(10), () -> gauge(),
                value -> value != null && value == 0.0);
        Duration seen = Duration.ofNanos(System.nanoTime() - paused);
        String ready = server.get("/health/ready").body();
        assertTrue(ready.contains("disconnected since"), ready);
        String warning = Files.readAllLines(server.log()).stream().skip(logLinesBefore)
                .filter(line -> line.contains(" W ") && line.contains("Watch of ConfigMap")).findFirst().orElse(null);
        assertTrue(warning != null, "no WARNING in the log");
        long logged = LibertyProcess.lineTime(warning) - pausedAt;
        System.out.println("[hung API server] logged " + logged + " ms after the pause, the gauge after " + seen.toMillis() + " ms");
        assertTrue(logged >= 0, "the warning was logged before the pause: " + warning);

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
