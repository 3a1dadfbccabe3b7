package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.certificates.WebhookTls;
import dev.mooring.examples.admission.DeploymentPolicy;
import dev.mooring.test.Eventually;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The webhook certificate is served after every fresh start: Liberty generates a placeholder
 * certificate into the key store at start, and Mooring writes the real one about then, in either
 * order. Each of 8 clean starts (key store removed, as in a new pod) must end with the port
 * presenting the configured certificate, checked by a TLS handshake, and admission ready; each
 * server stops cleanly, also after a volley of truncated reviews. For a longer soak of the same
 * race, {@code -Dmooring.it.admission.starts=50}.
 */
class AdmissionStartIT {

    private static final int STARTS = Integer.getInteger("mooring.it.admission.starts", 8);
    private static final Duration SERVED_WITHIN = Duration.ofSeconds(60);
    private LibertyProcess server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.command("stop");
        }
    }

    @Test
    void theWebhookCertificateIsServedAfterEveryFreshStart() throws Exception {
        String namespace = Testbed.createNamespace(new io.kubernetes.client.openapi.apis.CoreV1Api(Testbed.client()), "starts");
        Path dir = Path.of(System.getProperty("mooring.it.failover.dir"), "starts");
        Path ear = Ears.exportWithPackage(dir, "starts.ear", DeploymentPolicy.class, namespace);
        Path tls = Path.of(System.getProperty("mooring.it.testbed"), "webhook-tls");
        X509Certificate expected = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(Files.newInputStream(tls.resolve("tls.crt")));
        server = LibertyProcess.start("starts", dir.resolve("usr"), ear, Map.of(), LibertyProcess.webhookTls());
        int https = server.httpsPort;
        Path security = dir.resolve("usr/servers/starts/resources/security");
        for (int start = 1; start <= STARTS; start++) {
            if (start > 1) {
                deleteTree(security);
                server.command("start", "--clean");
            }
            int attempt = start;
            WebhookTls.Served served = Eventually.await("start " + attempt + ": the webhook certificate served", SERVED_WITHIN,
                    () -> WebhookTls.served("127.0.0.1", https, Duration.ofSeconds(2)),
                    presented -> presented != null && expected.equals(presented.certificate()));
            assertFalse(served.clientCertificateRequested(), "client certificates are off by default");
            Http.Answer ready = Eventually.await("start " + attempt + ": admission ready", SERVED_WITHIN,
                    () -> server.get("/health/ready"), answer -> answer.status() == 200);
            assertEquals("UP", ready.check("mooring-admission").getString("status"), ready.body());
            if (start == 1) {
                truncatedReviews(https);
            }
            server.command("stop");
            Eventually.await("start " + attempt + ": the server process ends", Duration.ofSeconds(30),
                    () -> LibertyPid.find("starts").isEmpty());
        }
        server = null;
    }

    /** The bodies that used to spin a thread forever; the server must still stop afterwards. */
    private static void truncatedReviews(int https) throws Exception {
        java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder().sslContext(trustAll())
                .version(java.net.http.HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        java.net.URI uri = java.net.URI.create("https://127.0.0.1:" + https + "/validate/db/example/org/v1/databases/check-change");
        for (String body : List.of("{\"x\":[", "{\"request\":{\"x\":{", "{\"request\":{\"options\":{\"a\":[1,")) {
            for (int i = 0; i < 5; i++) {
                var answer = AdmissionFuzz.send(client, uri, new AdmissionFuzz.Case("truncated", "POST", "application/json",
                        body.getBytes(StandardCharsets.UTF_8)));
                assertEquals(400, answer.statusCode(), answer.body());
                assertTrue(answer.body().contains("ends early"), answer.body());
            }
        }
    }

    private static javax.net.ssl.SSLContext trustAll() throws Exception {
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(null, new javax.net.ssl.TrustManager[] {new javax.net.ssl.X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        return context;
    }

    private static void deleteTree(Path root) throws java.io.IOException {
        if (Files.exists(root)) {
            try (var paths = Files.walk(root)) {
                for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }
}
