package dev.mooring.runtime.admission;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Puts the webhook's serving certificate where Liberty's HTTPS port takes it from. Kubernetes
 * mounts a TLS Secret as two PEM files; Liberty reads key stores. So the pair is written as a
 * PKCS#12 key store at the location of Liberty's default key store, which Liberty polls and
 * reloads (server.xml: {@code updateTrigger="polled"}). Whether the HTTPS port serves the
 * certificate is then checked from outside, with a TLS handshake.
 */
public final class WebhookTls {

    private static final String ALIAS = "mooring-webhook";

    private final Path certificate;
    private final Path key;
    private final Path keyStore;
    private final char[] password;

    /**
     * @param certificate the PEM certificate chain ({@code tls.crt})
     * @param key the PEM private key ({@code tls.key})
     * @param keyStore the PKCS#12 file Liberty's default key store reads
     * @param password the key store's password, as configured for Liberty (copied)
     */
    public WebhookTls(Path certificate, Path key, Path keyStore, char[] password) {
        this.certificate = Objects.requireNonNull(certificate, "certificate");
        this.key = Objects.requireNonNull(key, "key");
        this.keyStore = Objects.requireNonNull(keyStore, "keyStore");
        this.password = password.clone();
    }

    /** The PEM certificate file. */
    public Path certificate() {
        return certificate;
    }

    /** The PEM files' content, to notice a rotation. */
    public byte[] fingerprint() throws IOException {
        byte[] certificateBytes = read(certificate);
        byte[] keyBytes = read(key);
        byte[] both = Arrays.copyOf(certificateBytes, certificateBytes.length + keyBytes.length);
        System.arraycopy(keyBytes, 0, both, certificateBytes.length, keyBytes.length);
        return both;
    }

    /**
     * Write the key store from the PEM pair, unless it already holds this certificate.
     *
     * @return the leaf certificate now in the key store
     * @throws IOException if a file cannot be read or written (a missing PEM file is named)
     * @throws IllegalArgumentException if the PEM files do not hold a matching certificate and key
     */
    public X509Certificate install() throws IOException {
        List<X509Certificate> chain = PemKeys.certificates(read(certificate), certificate.toString());
        PrivateKey privateKey = PemKeys.privateKey(read(key), key.toString());
        PemKeys.requirePair(privateKey, chain.get(0), key.toString(), certificate.toString());
        if (holds(chain.get(0))) {
            return chain.get(0);
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(ALIAS, privateKey, password, chain.toArray(new Certificate[0]));
            Path directory = keyStore.toAbsolutePath().getParent();
            Files.createDirectories(directory);
            Path temporary = Files.createTempFile(directory, ".mooring-webhook", ".p12");
            try (OutputStream out = Files.newOutputStream(temporary)) {
                store.store(out, password);
            }
            Files.move(temporary, keyStore, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (GeneralSecurityException e) {
            throw new IOException("Cannot write the key store " + keyStore + ": " + e.getMessage(), e);
        }
        return chain.get(0);
    }

    /** True if the key store already holds this leaf certificate under Mooring's alias. */
    private boolean holds(X509Certificate leaf) {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            return leaf.equals(store.getCertificate(ALIAS));
        } catch (IOException | GeneralSecurityException e) {
            return false; // absent, Liberty's generated placeholder, or another password: write it
        }
    }

    /**
     * The certificate a TLS server presents at {@code host:port}, or null when the handshake
     * fails. This is a self-check of the local port: the peer is not authenticated, and the
     * connection carries no data.
     */
    public static X509Certificate served(String host, int port, Duration timeout) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new AnyServer()}, null);
            try (Socket plain = new Socket()) {
                plain.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
                plain.setSoTimeout((int) timeout.toMillis());
                try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, false)) {
                    socket.startHandshake();
                    Certificate[] peer = socket.getSession().getPeerCertificates();
                    return peer.length > 0 && peer[0] instanceof X509Certificate leaf ? leaf : null;
                }
            }
        } catch (IOException | GeneralSecurityException e) {
            return null;
        }
    }

    private static byte[] read(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null, "the webhook TLS file does not exist (mount the TLS Secret"
                    + " there, or set mooring.webhook.tls.cert-file / key-file)");
        }
    }

    /** Accepts any server certificate: only for {@link #served}, which compares it afterwards. */
    private static final class AnyServer implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("server side only");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // compared by the caller
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
