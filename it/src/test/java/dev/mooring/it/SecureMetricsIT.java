package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.examples.mirror.ConfigMapMirror;
import dev.mooring.it.monitoring.FlakyController;
import dev.mooring.it.monitoring.NamePolicy;
import dev.mooring.manifests.Rbac;
import dev.mooring.test.Eventually;
import io.kubernetes.client.util.Config;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Secure metrics on an API server that enforces RBAC, with the RBAC Mooring generates for them:
 * the operator (whose ServiceAccount has only the generated rights) serves {@code /mooring/metrics}
 * on the HTTPS port to a ServiceAccount bound to the generated metrics reader role, refuses every
 * other caller with a reason, and Liberty's open {@code /metrics} is closed. A real Prometheus
 * scrapes the endpoint as the generated ServiceMonitor says (HTTPS, bearer token).
 */
class SecureMetricsIT {

    private static final String NAME = "mooring-it";
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    private final List<AutoCloseable> running = new ArrayList<>();
    private LibertyProcess liberty;
    private Path runDir;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable process : running) {
            process.close();
        }
        if (liberty != null) {
            liberty.command("stop");
        }
        if (runDir != null) {
            Testbed.down(runDir);
        }
    }

    @Test
    void onlyCallersTheApiServerAuthorizesReadTheMetrics() throws Exception {
        Path dir = Path.of(System.getProperty("mooring.it.failover.dir")).resolveSibling("secure-metrics");
        runDir = dir.resolve("testbed");
        // the audit log counts the TokenReviews the operator asks for
        List<String> flags = new ArrayList<>(Testbed.auditFlags(dir, """
                - level: Metadata
                  resources:
                  - group: authentication.k8s.io
                    resources: [tokenreviews]
                """));
        flags.add("--authorization-mode=RBAC");
        Path audit = dir.resolve("audit.log");
        Properties env = Testbed.up(runDir, flags.toArray(String[]::new));
        KubeHttp admin = new KubeHttp(Config.fromConfig(runDir.resolve("admin.kubeconfig").toString()));
        String namespace = "metrics-it";
        admin.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + namespace + "\"}}", "application/json");
        // Mooring's EAR brings the ConfigMap mirror; the test's package the flaky controller and a policy
        for (JsonObject manifest : Rbac.of(List.of(FlakyController.class, NamePolicy.class, ConfigMapMirror.class),
                Rbac.Settings.builder(NAME, namespace).secureMetrics(true).build())) {
            RbacGenerationIT.apply(admin, manifest);
        }
        admin.send("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", Map.of(), """
                {"metadata": {"name": "prometheus-reads-metrics"},
                 "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "%s"},
                 "subjects": [{"kind": "ServiceAccount", "name": "prometheus", "namespace": "%s"}]}
                """.formatted(Rbac.metricsReader(NAME), namespace), "application/json");
        Path kubeconfig = dir.resolve("operator.kubeconfig");
        Testbed.tokenKubeconfig(kubeconfig, env, Testbed.token(runDir, namespace, NAME));
        String scraper = Testbed.token(runDir, namespace, "prometheus");
        String nobody = Testbed.token(runDir, namespace, "nobody");

        Path ear = Ears.exportWithPackage(dir, "secure-metrics.ear", FlakyController.class, namespace);
        List<String> properties = new ArrayList<>(List.of(LibertyProcess.webhookTls()));
        properties.add("mooring.metrics.secure=true");
        liberty = LibertyProcess.start("secure-metrics", dir.resolve("usr"), ear, Map.of("KUBECONFIG", kubeconfig.toString()),
                properties.toArray(String[]::new));
        Eventually.await("Mooring ready", PATIENCE, () -> liberty.get("/health/ready"), answer -> answer.status() == 200);

        HttpClient https = AdmissionFuzz.client(null);
        URI metrics = URI.create("https://127.0.0.1:" + liberty.httpsPort + "/mooring/metrics");
        HttpResponse<String> allowed = get(https, metrics, "Bearer " + scraper);
        assertEquals(200, allowed.statusCode(), allowed.body());
        String type = allowed.headers().firstValue("Content-Type").orElse("").replace(" ", "");
        assertTrue(type.startsWith("text/plain;") && type.contains(";version=0.0.4"), type);
        assertTrue(allowed.body().contains("\ncontroller_runtime_reconcile_total{controller=\"flaky\""), allowed.body());
        assertTrue(allowed.body().contains("mp_scope=\"base\""), "the JVM's metrics too");

        HttpResponse<String> refused = get(https, metrics, "Bearer " + nobody);
        assertEquals(403, refused.statusCode());
        assertTrue(refused.body().startsWith("user system:serviceaccount:" + namespace + ":nobody"), refused.body());
        assertTrue(refused.body().contains("may not get /mooring/metrics"), refused.body());
        HttpResponse<String> unknown = get(https, metrics, "Bearer not-a-token");
        assertEquals(401, unknown.statusCode());
        assertTrue(unknown.body().contains("did not authenticate the token"), unknown.body());
        HttpResponse<String> anonymous = get(https, metrics, null);
        assertEquals(401, anonymous.statusCode());
        assertEquals("Bearer", anonymous.headers().firstValue("WWW-Authenticate").orElse(""));
        Http.Answer plain = liberty.get("/mooring/metrics");
        assertEquals(403, plain.status());
        assertTrue(plain.body().contains("HTTPS port only"), plain.body());

        // Liberty's own endpoint no longer answers anyone, on either port
        Http.Answer open = liberty.get("/metrics");
        assertNotEquals(200, open.status(), open.body());
        assertFalse(open.body().contains("controller_runtime"), open.body());
        HttpResponse<String> openTls = get(https, URI.create("https://127.0.0.1:" + liberty.httpsPort + "/metrics"), "Bearer " + scraper);
        assertNotEquals(200, openTls.statusCode());
        assertFalse(openTls.body().contains("controller_runtime"), openTls.body());

        // a real Prometheus, configured as the generated ServiceMonitor is
        Path bin = PrometheusServer.bin();
        Path token = Files.writeString(dir.resolve("prometheus.token"), scraper);
        Path config = Files.writeString(dir.resolve("prometheus.yml"), String.join("\n",
                "global: {scrape_interval: 1s}",
                "scrape_configs:",
                "- job_name: secure",
                "  scheme: https",
                "  metrics_path: /mooring/metrics",
                "  authorization: {credentials_file: " + token + "}",
                "  tls_config: {insecure_skip_verify: true}",
                "  static_configs: [{targets: ['127.0.0.1:" + liberty.httpsPort + "']}]", ""));
        PrometheusServer.promtool(bin, "check", "config", config.toString());
        PrometheusServer prometheus = PrometheusServer.start(bin, dir.resolve("prometheus-" + System.currentTimeMillis()), config);
        running.add(prometheus);
        Eventually.await("Prometheus scrapes the secure endpoint", PATIENCE, () -> prometheus.query("up{job=\"secure\"} == 1"),
                result -> result.size() == 1);
        assertFalse(prometheus.query("controller_runtime_reconcile_time_seconds_count{job=\"secure\",controller=\"flaky\"}").isEmpty());
        assertFalse(prometheus.query("controller_runtime_webhook_requests_in_flight{job=\"secure\"}").isEmpty());

        // a flood of 1,000 distinct bogus tokens from 8 clients while Prometheus scrapes every second: the operator
        // asks for TokenReviews at the budget's rate only, answers the rest 429, and every scrape succeeds
        long reviewsBefore = tokenReviews(audit);
        long floodStart = System.nanoTime();
        double floodStartSeconds = System.currentTimeMillis() / 1000.0;
        java.util.concurrent.ExecutorService flood = java.util.concurrent.Executors.newFixedThreadPool(8);
        Map<Integer, Integer> codes = new java.util.concurrent.ConcurrentHashMap<>();
        try {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                String bogus = "Bearer bogus-" + i + "-" + java.util.UUID.randomUUID();
                sent.add(flood.submit(() -> {
                    HttpResponse<String> answer = get(https, metrics, bogus);
                    codes.merge(answer.statusCode(), 1, Integer::sum);
                    if (answer.statusCode() == 429) {
                        assertEquals("1", answer.headers().firstValue("Retry-After").orElse(""));
                    }
                    return null;
                }));
            }
            for (var each : sent) {
                each.get(5, java.util.concurrent.TimeUnit.MINUTES);
            }
        } finally {
            flood.shutdownNow();
        }
        long seconds = Math.max(1, (System.nanoTime() - floodStart) / 1_000_000_000L + 1);
        assertEquals(java.util.Set.of(401, 429), codes.keySet(), codes.toString());
        // the budget: a burst of 10 and 5 a second; one more a minute for the scraper, whose allowance may expire meanwhile
        long reviews = tokenReviews(audit) - reviewsBefore;
        assertTrue(reviews <= 10 + 5 * seconds + (seconds / 60 + 1), reviews + " TokenReviews in " + seconds + " s: " + codes);
        // a scrape after the flood (Prometheus may have been starved of CPU meanwhile), then every scrape since its start
        double floodEnd = System.currentTimeMillis() / 1000.0;
        String up = "up{job=\"secure\",instance=\"127.0.0.1:" + liberty.httpsPort + "\"}";
        Eventually.await("a scrape after the flood", PATIENCE, () -> prometheus.query("timestamp(" + up + ")"),
                result -> !result.isEmpty() && Double.parseDouble(result.getJsonObject(0).getJsonArray("value").getString(1)) > floodEnd);
        String window = "[" + (long) Math.ceil(System.currentTimeMillis() / 1000.0 - floodStartSeconds) + "s]";
        JsonArray scraped = prometheus.query("count_over_time(" + up + window + ")");
        assertFalse(scraped.isEmpty(), "Prometheus scraped during the flood (" + seconds + " s)");
        assertTrue(Double.parseDouble(scraped.getJsonObject(0).getJsonArray("value").getString(1)) >= 1, scraped.toString());
        JsonArray failed = prometheus.query("count_over_time(" + up + window + ") - sum_over_time(" + up + window + ")");
        assertEquals("0", failed.getJsonObject(0).getJsonArray("value").getString(1), "scrapes failed during the flood: " + failed);
    }

    /** How many TokenReviews the API server's audit log holds. */
    private static long tokenReviews(Path audit) throws Exception {
        try (var lines = Files.lines(audit)) {
            return lines.filter(line -> line.contains("\"resource\":\"tokenreviews\"") && line.contains("\"stage\":\"ResponseComplete\""))
                    .count();
        }
    }


    private static HttpResponse<String> get(HttpClient client, URI uri, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
