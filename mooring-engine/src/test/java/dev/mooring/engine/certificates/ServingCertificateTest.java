package dev.mooring.engine.certificates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The certificate is served after every start, whatever Liberty did first: a port that keeps
 * presenting its placeholder is told to reload again (not more often than the interval), a key
 * store replaced behind Mooring's back is written again, and readiness follows what the port
 * really presents. The port is a fake here; AdmissionStartIT checks real Liberty starts.
 */
class ServingCertificateTest {

    @TempDir
    Path dir;

    /** Far from zero, as {@code System.nanoTime} may be: a sum where a difference belongs would show. */
    private final AtomicLong clock = new AtomicLong(java.util.concurrent.TimeUnit.HOURS.toNanos(5));
    private final AtomicReference<WebhookTls.Served> port = new AtomicReference<>();
    private WebhookTls tls;
    private X509Certificate placeholder;

    @BeforeEach
    void files() throws Exception {
        Path other = Files.createDirectories(dir.resolve("placeholder"));
        Pem.selfSigned(dir);
        Pem.selfSigned(other);
        tls = new WebhookTls(dir.resolve("tls.crt"), dir.resolve("tls.key"), null, dir.resolve("store.p12"), "x".toCharArray());
        placeholder = new WebhookTls(other.resolve("tls.crt"), other.resolve("tls.key"), null, other.resolve("store.p12"),
                "x".toCharArray()).install();
    }

    private ServingCertificate certificate(boolean clientAuth) {
        return new ServingCertificate(tls, clientAuth, port::get, clock::get, "port 1");
    }

    @Test
    void aPortThatKeepsItsPlaceholderIsToldToReloadAgainUntilItServes() throws Exception {
        ServingCertificate certificate = certificate(false);
        assertTrue(certificate.notAfter().isEmpty(), "no expiry before a certificate is installed");
        port.set(new WebhookTls.Served(placeholder, false));
        certificate.check();
        assertEquals(1, certificate.reloads(), "installed and reloaded once");
        assertEquals(tls.install().getNotAfter().toInstant(), certificate.notAfter().orElseThrow(), "the installed one's expiry");
        assertFalse(certificate.serving());
        assertTrue(certificate.detail().contains("does not present the webhook certificate yet"), certificate.detail());
        clock.addAndGet(ServingCertificate.RELOAD_INTERVAL.toNanos() - 1);
        certificate.check();
        assertEquals(1, certificate.reloads(), "not again within the interval");
        java.nio.file.attribute.FileTime written = java.nio.file.attribute.FileTime.fromMillis(0);
        Files.setLastModifiedTime(dir.resolve("store.p12"), written);
        clock.addAndGet(1);
        certificate.check();
        assertEquals(2, certificate.reloads(), "again after the interval");
        assertTrue(Files.getLastModifiedTime(dir.resolve("store.p12")).compareTo(written) > 0,
                "written anew, so that Liberty's monitor sees a change (a notification of an unchanged file does nothing)");
        X509Certificate installed = tls.install();
        port.set(new WebhookTls.Served(installed, false));
        certificate.check();
        assertTrue(certificate.serving(), certificate.detail());
        clock.addAndGet(ServingCertificate.RELOAD_INTERVAL.toNanos() * 10);
        port.set(null);
        certificate.check();
        assertTrue(certificate.serving(), "once served, the port is not probed again until the files change");
        assertEquals(2, certificate.reloads());
    }

    @Test
    void aKeyStoreReplacedBehindMooringsBackIsWrittenAgain() throws Exception {
        ServingCertificate certificate = certificate(false);
        port.set(null);
        certificate.check();
        // Liberty generates its placeholder into the same file after Mooring wrote it
        Files.copy(dir.resolve("placeholder/store.p12"), dir.resolve("store.p12"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        clock.addAndGet(ServingCertificate.RELOAD_INTERVAL.toNanos());
        certificate.check();
        assertEquals(tls.install(), loadLeaf(), "the store holds the webhook certificate again");
    }

    @Test
    void rotatedFilesAreInstalledAndVerifiedAgain() throws Exception {
        ServingCertificate certificate = certificate(false);
        port.set(new WebhookTls.Served(tls.install(), false));
        certificate.check();
        assertTrue(certificate.serving());
        Pem.selfSigned(dir);
        certificate.check();
        assertFalse(certificate.serving(), "the port still presents the old certificate");
        port.set(new WebhookTls.Served(tls.install(), false));
        certificate.check();
        assertTrue(certificate.serving());
    }

    @Test
    void clientCertificatesMustBeAskedForExactlyWhenRequired() throws Exception {
        ServingCertificate required = certificate(true);
        port.set(new WebhookTls.Served(tls.install(), false));
        required.check();
        assertFalse(required.serving());
        assertTrue(required.detail().contains("does not ask for client certificates"), required.detail());
        port.set(new WebhookTls.Served(tls.install(), true));
        required.check();
        assertTrue(required.serving(), required.detail());
        assertTrue(required.detail().endsWith("client certificates required"), required.detail());
        ServingCertificate optional = certificate(false);
        optional.check();
        assertFalse(optional.serving());
        assertTrue(optional.detail().contains("mooring.webhook.tls.client-auth is not true"), optional.detail());
    }

    private X509Certificate loadLeaf() throws Exception {
        java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(dir.resolve("store.p12"))) {
            store.load(in, "x".toCharArray());
        }
        return (X509Certificate) store.getCertificate("mooring-webhook");
    }

    /** Self-signed pairs made with openssl, as in WebhookTlsTest. */
    static final class Pem {
        static void selfSigned(Path pair) throws Exception {
            run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", pair.resolve("tls.key").toString(),
                    "-out", pair.resolve("tls.crt").toString(), "-subj", "/CN=webhook.test.svc", "-days", "1");
        }

        private static void run(String... command) throws Exception {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            process.getInputStream().readAllBytes();
            assertEquals(0, process.waitFor(), String.join(" ", command));
        }
    }

    @Test
    void aPortThatAnswersNoTlsForTheLimitIsMisconfiguredUntilItAnswers() throws Exception {
        ServingCertificate certificate = certificate(false);
        port.set(null);
        certificate.check();
        clock.addAndGet(ServingCertificate.UNANSWERED_LIMIT.toNanos() - 1);
        certificate.check();
        assertTrue(certificate.misconfigured().isEmpty(), "not yet: a starting endpoint takes seconds");
        clock.incrementAndGet();
        certificate.check();
        String why = certificate.misconfigured().orElseThrow();
        assertTrue(why.contains("nothing has answered TLS on port 1 for 60 s") && why.contains("https.port"), why);
        port.set(new WebhookTls.Served(placeholder, false));
        certificate.check();
        assertTrue(certificate.misconfigured().isEmpty(), "it answers again");
    }

    @Test
    void aPortThatTrustsTheServingCertificateAsAClientsIsNotServingYet() throws Exception {
        ServingCertificate certificate = certificate(true);
        X509Certificate installed = tls.install();
        port.set(new WebhookTls.Served(installed, true, java.util.List.of(installed.getSubjectX500Principal())));
        certificate.check();
        assertFalse(certificate.serving());
        assertTrue(certificate.detail().contains("still trusts the webhook's own certificate as a client's"), certificate.detail());
        port.set(new WebhookTls.Served(installed, true, java.util.List.of(new javax.security.auth.x500.X500Principal("CN=client-ca"))));
        certificate.check();
        assertTrue(certificate.serving(), certificate.detail());
    }
}
