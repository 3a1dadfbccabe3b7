package dev.mooring.engine.certificates;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PEM pairs as openssl and cert-manager write them, turned into the key store Liberty reads. */
class WebhookTlsTest {

    @TempDir
    Path dir;

    @Test
    void pkcs8Pkcs1AndSec1KeysAreInstalled() throws Exception {
        for (List<String> key : List.of(
                List.of("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"),
                List.of("genrsa", "-traditional", "2048"),
                List.of("ecparam", "-name", "prime256v1", "-genkey", "-noout"))) {
            Path pair = Files.createDirectories(dir.resolve(key.get(0)));
            Files.write(pair.resolve("tls.key"), openssl(key, null));
            selfSigned(pair);
            WebhookTls tls = new WebhookTls(pair.resolve("tls.crt"), pair.resolve("tls.key"), null, pair.resolve("store.p12"),
                    "secret".toCharArray());
            X509Certificate installed = tls.install();
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(pair.resolve("store.p12"))) {
                store.load(in, "secret".toCharArray());
            }
            assertEquals(installed, store.getCertificate("mooring-webhook"), key.toString());
            assertTrue(store.isKeyEntry("mooring-webhook"));
        }
    }

    @Test
    void anUnchangedPairIsNotWrittenAgain() throws Exception {
        Files.write(dir.resolve("tls.key"), openssl(List.of("genrsa", "2048"), null));
        selfSigned(dir);
        WebhookTls tls = new WebhookTls(dir.resolve("tls.crt"), dir.resolve("tls.key"), null, dir.resolve("store.p12"), "x".toCharArray());
        tls.install();
        Files.setLastModifiedTime(dir.resolve("store.p12"), FileTime.fromMillis(0));
        byte[] fingerprint = tls.fingerprint();
        tls.install();
        assertEquals(0, Files.getLastModifiedTime(dir.resolve("store.p12")).toMillis());
        assertArrayEquals(fingerprint, tls.fingerprint());
    }

    @Test
    void aKeyOfAnotherCertificateIsRefused() throws Exception {
        Files.write(dir.resolve("tls.key"), openssl(List.of("genrsa", "2048"), null));
        selfSigned(dir);
        Files.write(dir.resolve("tls.key"), openssl(List.of("genrsa", "2048"), null));
        WebhookTls tls = new WebhookTls(dir.resolve("tls.crt"), dir.resolve("tls.key"), null, dir.resolve("store.p12"), "x".toCharArray());
        IllegalArgumentException problem = assertThrows(IllegalArgumentException.class, tls::install);
        assertTrue(problem.getMessage().contains("does not belong to the certificate"), problem.getMessage());
        assertTrue(Files.notExists(dir.resolve("store.p12")));
    }

    @Test
    void missingAndMalformedFilesAreNamed() throws Exception {
        WebhookTls missing = new WebhookTls(dir.resolve("tls.crt"), dir.resolve("tls.key"), null, dir.resolve("s.p12"), "x".toCharArray());
        NoSuchFileException absent = assertThrows(NoSuchFileException.class, missing::install);
        assertTrue(absent.getMessage().contains(dir.resolve("tls.crt").toString()), absent.getMessage());
        Files.writeString(dir.resolve("tls.crt"), "not a certificate");
        Files.writeString(dir.resolve("tls.key"), "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");
        IllegalArgumentException certificate = assertThrows(IllegalArgumentException.class, missing::install);
        assertTrue(certificate.getMessage().contains("tls.crt"), certificate.getMessage());
        Files.write(dir.resolve("tls.key"), openssl(List.of("genrsa", "2048"), null));
        selfSigned(dir);
        Files.writeString(dir.resolve("tls.key"), "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");
        IllegalArgumentException encrypted = assertThrows(IllegalArgumentException.class, missing::install);
        assertTrue(encrypted.getMessage().contains("encrypted"), encrypted.getMessage());
    }

    /**
     * The client CAs are trusted entries beside the key and in a trust store of their own; a changed CA
     * file rewrites the store, an unchanged one does not.
     */
    /** A serving pair in {@code dir} and the self-signed CA of folder {@code ca} as the client CA file clients.pem. */
    private WebhookTls withClientCa(Path ca) throws Exception {
        Files.write(dir.resolve("tls.key"), openssl(List.of("genrsa", "2048"), null));
        selfSigned(dir);
        Files.createDirectories(ca);
        Files.write(ca.resolve("tls.key"), openssl(List.of("genrsa", "2048"), null));
        selfSigned(ca);
        Files.write(dir.resolve("clients.pem"), Files.readAllBytes(ca.resolve("tls.crt")));
        return new WebhookTls(dir.resolve("tls.crt"), dir.resolve("tls.key"), dir.resolve("clients.pem"), dir.resolve("store.p12"),
                "x".toCharArray());
    }

    @Test
    void clientCasAreTrustedEntriesOfTheSameStore() throws Exception {
        Path ca = dir.resolve("ca");
        WebhookTls tls = withClientCa(ca);
        tls.install();
        KeyStore store = load(dir.resolve("store.p12"));
        assertEquals(2, store.size());
        assertTrue(store.isCertificateEntry("mooring-webhook-client-ca-0"));
        Files.setLastModifiedTime(dir.resolve("store.p12"), FileTime.fromMillis(0));
        tls.install();
        assertEquals(0, Files.getLastModifiedTime(dir.resolve("store.p12")).toMillis(), "unchanged: not written");
        // the CA bundle gains a second CA: written again with both
        byte[] firstCa = Files.readAllBytes(dir.resolve("clients.pem"));
        Files.write(ca.resolve("tls.key"), openssl(List.of("genrsa", "2048"), null));
        selfSigned(ca);
        Files.write(dir.resolve("clients.pem"), Files.readAllBytes(ca.resolve("tls.crt")), java.nio.file.StandardOpenOption.APPEND);
        tls.install();
        assertEquals(3, load(dir.resolve("store.p12")).size());
        // and a trust store of the CAs alone, no key entry (whose certificate the JDK would trust), selected by a configuration
        KeyStore trust = load(dir.resolve("mooring-webhook-clients.p12"));
        assertEquals(2, trust.size());
        assertTrue(java.util.Collections.list(trust.aliases()).stream().allMatch(alias -> {
            try {
                return trust.isCertificateEntry(alias);
            } catch (java.security.KeyStoreException e) {
                throw new IllegalStateException(e);
            }
        }), "certificate entries only");
        String selects = Files.readString(dir.resolve("mooring-webhook-clients.xml"));
        assertTrue(selects.contains("location=\"" + dir.resolve("mooring-webhook-clients.p12").toAbsolutePath() + "\"")
                && selects.contains("<ssl id=\"defaultSSLConfig\" trustStoreRef=\"mooringClientTrust\"/>"), selects);
        // the bundle loses its second CA: both stores lose it too
        Files.write(dir.resolve("clients.pem"), firstCa);
        tls.install();
        assertEquals(2, load(dir.resolve("store.p12")).size());
        assertEquals(1, load(dir.resolve("mooring-webhook-clients.p12")).size());
        // without a CA file, the store holds the key alone
        new WebhookTls(dir.resolve("tls.crt"), dir.resolve("tls.key"), null, dir.resolve("store.p12"), "x".toCharArray()).install();
        assertEquals(1, load(dir.resolve("store.p12")).size());
    }

    /**
     * The client trust store and its configuration are written when the CAs change and left alone
     * when not; a rewrite writes the key store anyway; the fingerprint covers all three PEM files;
     * outside Liberty a reload touches the key store.
     */
    @Test
    void theClientTrustIsWrittenOnlyWhenItsCasChangeAndTheFingerprintCoversEveryFile() throws Exception {
        Path ca = dir.resolve("ca");
        WebhookTls tls = withClientCa(ca);
        X509Certificate leaf = tls.install();
        Path trust = dir.resolve("mooring-webhook-clients.p12");
        Path selects = dir.resolve("mooring-webhook-clients.xml");
        Files.setLastModifiedTime(trust, FileTime.fromMillis(0));
        Files.setLastModifiedTime(selects, FileTime.fromMillis(0));
        tls.install();
        assertEquals(0, Files.getLastModifiedTime(trust).toMillis(), "the same CAs: the trust store is not written");
        assertEquals(0, Files.getLastModifiedTime(selects).toMillis(), "nor its configuration");

        byte[] before = tls.fingerprint();
        Files.write(ca.resolve("tls.key"), openssl(List.of("genrsa", "2048"), null));
        selfSigned(ca);
        Files.write(dir.resolve("clients.pem"), Files.readAllBytes(ca.resolve("tls.crt")));
        assertFalse(java.util.Arrays.equals(before, tls.fingerprint()), "a new client CA changes the fingerprint");
        tls.install();
        assertTrue(Files.getLastModifiedTime(trust).toMillis() > 0, "another CA: the trust store is written");
        assertEquals(1, load(trust).size());
        X509Certificate newCa = PemKeys.certificates(Files.readAllBytes(dir.resolve("clients.pem")), "clients.pem").get(0);
        assertEquals(newCa, load(trust).getCertificate(java.util.Collections.list(load(trust).aliases()).get(0)), "the new CA trusted");
        assertEquals(newCa, load(dir.resolve("store.p12")).getCertificate("mooring-webhook-client-ca-0"), "in the key store too");

        Files.setLastModifiedTime(dir.resolve("store.p12"), FileTime.fromMillis(0));
        assertEquals(leaf, tls.rewrite(), "a rewrite answers the leaf certificate");
        assertTrue(Files.getLastModifiedTime(dir.resolve("store.p12")).toMillis() > 0, "and writes the key store though unchanged");

        byte[] beforeKey = tls.fingerprint();
        Files.write(dir.resolve("tls.key"), openssl(List.of("genrsa", "2048"), null));
        assertFalse(java.util.Arrays.equals(beforeKey, tls.fingerprint()), "a new key changes the fingerprint");

        Files.setLastModifiedTime(dir.resolve("store.p12"), FileTime.fromMillis(0));
        assertFalse(tls.reload(), "no Liberty MBean here");
        assertTrue(Files.getLastModifiedTime(dir.resolve("store.p12")).toMillis() > 0, "the key store touched instead");
    }

    /** The self-check against a real TLS server: the certificate it presents, and whether it asks for a client certificate. */
    @Test
    void theProbeSeesTheCertificateAndWhetherClientCertificatesAreRequired() throws Exception {
        Files.write(dir.resolve("tls.key"), openssl(List.of("genrsa", "2048"), null));
        selfSigned(dir);
        WebhookTls tls = new WebhookTls(dir.resolve("tls.crt"), dir.resolve("tls.key"), null, dir.resolve("store.p12"),
                "x".toCharArray());
        X509Certificate installed = tls.install();
        javax.net.ssl.KeyManagerFactory keys = javax.net.ssl.KeyManagerFactory.getInstance("PKIX");
        keys.init(load(dir.resolve("store.p12")), "x".toCharArray());
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        for (boolean need : List.of(false, true)) {
            try (javax.net.ssl.SSLServerSocket server = (javax.net.ssl.SSLServerSocket) context.getServerSocketFactory()
                    .createServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                server.setNeedClientAuth(need);
                Thread accept = new Thread(() -> {
                    try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) server.accept()) {
                        socket.startHandshake();
                    } catch (IOException expected) {
                        // the probe sends no client certificate
                    }
                });
                accept.start();
                WebhookTls.Served served = WebhookTls.served("127.0.0.1", server.getLocalPort(), java.time.Duration.ofSeconds(5));
                accept.join(5000);
                assertEquals(installed, served.certificate());
                assertEquals(need, served.clientCertificateRequested());
            }
        }
        try (java.net.ServerSocket closed = new java.net.ServerSocket(0)) {
            int port = closed.getLocalPort();
            closed.close();
            assertEquals(null, WebhookTls.served("127.0.0.1", port, java.time.Duration.ofSeconds(1)));
        }
    }

    private static KeyStore load(Path file) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, "x".toCharArray());
        }
        return store;
    }

    private void selfSigned(Path pair) throws IOException, InterruptedException {
        Files.write(pair.resolve("tls.crt"), openssl(List.of("req", "-x509", "-key", pair.resolve("tls.key").toString(),
                "-subj", "/CN=webhook.test.svc", "-days", "1"), null));
    }

    private static byte[] openssl(List<String> arguments, byte[] input) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        assertEquals(0, process.waitFor(), "openssl " + arguments);
        return output;
    }
}
