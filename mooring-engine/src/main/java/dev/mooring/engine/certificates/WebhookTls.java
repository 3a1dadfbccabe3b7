package dev.mooring.engine.certificates;

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
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Puts the webhook's serving certificate where Liberty's HTTPS port takes it from. Kubernetes
 * mounts a TLS Secret as two PEM files; Liberty reads key stores. So the pair is written as a
 * PKCS#12 key store at the location of Liberty's default key store, together with the CA
 * certificates that client certificates must chain to (Liberty uses the key store as its trust
 * store too), and Liberty is told to reload it (server.xml: {@code updateTrigger="mbean"}).
 * Whether the HTTPS port serves the certificate is checked from outside, with a TLS handshake.
 *
 * <p>With client CAs, a trust store of their own is written as well ({@code <clientTrust>.p12},
 * the CAs alone) with a configuration file beside it ({@code <clientTrust>.xml}) that server.xml
 * includes when it exists, pointing the {@code ssl} element's trust store at it: the key store
 * must not be the trust store then, because the JDK trusts the leaf of every key entry of a trust
 * store, which would let the serving certificate in as a client's. (The file cannot be named in
 * server.xml itself: a trust store missing at start closes the HTTPS port, and the server's output
 * folder is new at every pod start.)
 */
public final class WebhookTls {

    private static final String ALIAS = "mooring-webhook";
    private static final String CLIENT_CA_ALIAS = "mooring-webhook-client-ca-";
    private static final String FILE_NOTIFICATION = "WebSphere:service=com.ibm.ws.kernel.filemonitor.FileNotificationMBean";

    private final Path certificate;
    private final Path key;
    private final Path clientCa;
    private final Path keyStore;
    private final char[] password;
    private final Path clientTrust;

    /**
     * What a TLS handshake with the port showed.
     *
     * @param certificate the leaf certificate the port presented
     * @param clientCertificateRequested true when the port asked for a client certificate
     * @param acceptedIssuers the CAs the port named when it asked for one (empty otherwise)
     */
    public record Served(X509Certificate certificate, boolean clientCertificateRequested,
            List<javax.security.auth.x500.X500Principal> acceptedIssuers) {

        /** Without a list of accepted issuers. */
        public Served(X509Certificate certificate, boolean clientCertificateRequested) {
            this(certificate, clientCertificateRequested, List.of());
        }

        /** True when the port names {@code certificate}'s subject among the CAs of client certificates. */
        public boolean trustsAsClient(X509Certificate certificate) {
            return acceptedIssuers.contains(certificate.getSubjectX500Principal());
        }
    }

    /**
     * @param certificate the PEM certificate chain ({@code tls.crt})
     * @param key the PEM private key ({@code tls.key})
     * @param clientCa the PEM CA certificates that client certificates must chain to, or null
     * @param keyStore the PKCS#12 file Liberty's default key store reads
     * @param password the key store's password, as configured for Liberty (copied)
     */
    public WebhookTls(Path certificate, Path key, Path clientCa, Path keyStore, char[] password) {
        this(certificate, key, clientCa, keyStore, password, keyStore.toAbsolutePath().resolveSibling("mooring-webhook-clients"));
    }

    /**
     * @param clientTrust where the client CAs' own trust store ({@code .p12}) and the configuration
     *     that selects it ({@code .xml}, included by server.xml) are written, without the extension
     *     (the other parameters as above)
     */
    public WebhookTls(Path certificate, Path key, Path clientCa, Path keyStore, char[] password, Path clientTrust) {
        this.certificate = Objects.requireNonNull(certificate, "certificate");
        this.key = Objects.requireNonNull(key, "key");
        this.clientCa = clientCa;
        this.keyStore = Objects.requireNonNull(keyStore, "keyStore");
        this.password = password.clone();
        this.clientTrust = Objects.requireNonNull(clientTrust, "clientTrust").toAbsolutePath();
    }

    /** The client CAs' trust store, written with client CAs. */
    public Path clientTrustStore() {
        return clientTrust.resolveSibling(clientTrust.getFileName() + ".p12");
    }

    /** The configuration that selects {@link #clientTrustStore()}, written with client CAs. */
    public Path clientTrustConfiguration() {
        return clientTrust.resolveSibling(clientTrust.getFileName() + ".xml");
    }

    /** The PEM file of the client CA certificates, or null when client certificates are not checked. */
    public Path clientCa() {
        return clientCa;
    }

    /** The PEM certificate file. */
    public Path certificate() {
        return certificate;
    }

    /** The PEM private key file. */
    public Path key() {
        return key;
    }

    /** The PEM files' content, to notice a rotation. */
    public byte[] fingerprint() throws IOException {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        all.writeBytes(read(certificate));
        all.writeBytes(read(key));
        if (clientCa != null) {
            all.writeBytes(read(clientCa));
        }
        return all.toByteArray();
    }

    /**
     * Write the key store from the PEM files, unless it already holds this certificate and these
     * client CAs.
     *
     * @return the leaf certificate now in the key store
     * @throws IOException if a file cannot be read or written (a missing PEM file is named)
     * @throws IllegalArgumentException if the PEM files do not hold a matching certificate and key,
     *     or the client CA file holds no certificate
     */
    public X509Certificate install() throws IOException {
        return install(false);
    }

    /**
     * Write the key store from the PEM files even when it already holds them: a new file (new
     * modification time and bytes) that Liberty's file monitor reports as changed.
     *
     * @see #install()
     */
    public X509Certificate rewrite() throws IOException {
        return install(true);
    }

    private X509Certificate install(boolean always) throws IOException {
        List<X509Certificate> chain = PemKeys.certificates(read(certificate), certificate.toString());
        PrivateKey privateKey = PemKeys.privateKey(read(key), key.toString());
        PemKeys.requirePair(privateKey, chain.get(0), key.toString(), certificate.toString());
        List<X509Certificate> clientCas = clientCa == null ? List.of() : PemKeys.certificates(read(clientCa), clientCa.toString());
        if (!clientCas.isEmpty()) {
            writeClientTrust(clientCas, always);
        }
        if (!always && holds(chain.get(0), clientCas)) {
            return chain.get(0);
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(ALIAS, privateKey, password, chain.toArray(new Certificate[0]));
            for (int i = 0; i < clientCas.size(); i++) {
                store.setCertificateEntry(CLIENT_CA_ALIAS + i, clientCas.get(i));
            }
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

    /**
     * Writes the client CAs' trust store unless it holds exactly these CAs, and the configuration
     * that selects it unless it is there (its content never changes).
     */
    private void writeClientTrust(List<X509Certificate> clientCas, boolean always) throws IOException {
        Path store = clientTrustStore();
        try {
            if (always || !holdsOnly(store, clientCas)) {
                KeyStore trust = KeyStore.getInstance("PKCS12");
                trust.load(null, null);
                for (int i = 0; i < clientCas.size(); i++) {
                    trust.setCertificateEntry(CLIENT_CA_ALIAS + i, clientCas.get(i));
                }
                Files.createDirectories(store.getParent());
                Path temporary = Files.createTempFile(store.getParent(), ".mooring-webhook-clients", ".p12");
                try (OutputStream out = Files.newOutputStream(temporary)) {
                    trust.store(out, password);
                }
                Files.move(temporary, store, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("Cannot write the client trust store " + store + ": " + e.getMessage(), e);
        }
        Path configuration = clientTrustConfiguration();
        String xml = "<server>\n"
                + "    <!-- written by Mooring: the webhook port trusts the client CA file alone (mooring.webhook.tls.client-ca-file) -->\n"
                + "    <keyStore id=\"mooringClientTrust\" location=\"" + store + "\" type=\"PKCS12\"\n"
                + "              password=\"${mooring.webhook.tls.keystore-password}\" updateTrigger=\"mbean\"/>\n"
                + "    <ssl id=\"defaultSSLConfig\" trustStoreRef=\"mooringClientTrust\"/>\n"
                + "</server>\n";
        if (!Files.exists(configuration) || !xml.equals(Files.readString(configuration))) {
            Path temporary = Files.createTempFile(configuration.getParent(), ".mooring-webhook-clients", ".xml");
            Files.writeString(temporary, xml);
            Files.move(temporary, configuration, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** True if {@code file} is a key store of exactly these certificates under Mooring's aliases. */
    private boolean holdsOnly(Path file, List<X509Certificate> certificates) {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            for (int i = 0; i < certificates.size(); i++) {
                if (!certificates.get(i).equals(store.getCertificate(CLIENT_CA_ALIAS + i))) {
                    return false;
                }
            }
            return store.size() == certificates.size();
        } catch (IOException | GeneralSecurityException e) {
            return false;
        }
    }

    /** True if the key store holds exactly this leaf certificate and these client CAs under Mooring's aliases. */
    private boolean holds(X509Certificate leaf, List<X509Certificate> clientCas) {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            if (!leaf.equals(store.getCertificate(ALIAS))) {
                return false;
            }
            List<String> aliases = java.util.Collections.list(store.aliases());
            for (int i = 0; i < clientCas.size(); i++) {
                if (!clientCas.get(i).equals(store.getCertificate(CLIENT_CA_ALIAS + i))) {
                    return false;
                }
            }
            return aliases.size() == 1 + clientCas.size();
        } catch (IOException | GeneralSecurityException e) {
            return false; // absent, Liberty's generated placeholder, or another password: write it
        }
    }

    /**
     * Tell Liberty that the key store changed, so that it reloads it now: through Liberty's file
     * notification MBean (for {@code updateTrigger="mbean"}); where that MBean is not registered,
     * the file's modification time is set to now, which a {@code polled} key store notices.
     *
     * @return true when the MBean was told
     */
    public boolean reload() throws IOException {
        try {
            javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
            javax.management.ObjectName name = new javax.management.ObjectName(FILE_NOTIFICATION);
            if (server.isRegistered(name)) {
                List<String> changed = new java.util.ArrayList<>(List.of(keyStore.toAbsolutePath().toString()));
                if (clientCa != null) {
                    changed.add(clientTrustStore().toString());
                    changed.add(clientTrustConfiguration().toString());
                }
                server.invoke(name, "notifyFileChanges", new Object[] {null, changed, null},
                        new String[] {"java.util.Collection", "java.util.Collection", "java.util.Collection"});
                return true;
            }
        } catch (javax.management.JMException e) {
            throw new IOException("Liberty's file notification MBean refused the key store " + keyStore + ": " + e.getMessage(), e);
        }
        Files.setLastModifiedTime(keyStore, java.nio.file.attribute.FileTime.from(java.time.Instant.now()));
        return false;
    }

    /**
     * What a TLS server presents at {@code host:port}, or null when it presents no certificate
     * (no TLS server there, or the connection failed). The certificate is taken as the server
     * sends it, before any client certificate is asked for, so that a port that requires client
     * certificates can be checked too. This is a self-check of the local port: the peer is not
     * authenticated, and the connection carries no data.
     */
    public static Served served(String host, int port, Duration timeout) {
        AnyServer server = new AnyServer();
        NoClientCertificate client = new NoClientCertificate();
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new javax.net.ssl.KeyManager[] {client}, new TrustManager[] {server}, null);
            try (Socket plain = new Socket()) {
                plain.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
                plain.setSoTimeout((int) timeout.toMillis());
                try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, false)) {
                    socket.startHandshake();
                }
            }
        } catch (IOException | GeneralSecurityException e) {
            // a port that requires a client certificate ends the handshake: what it sent before still counts
        }
        X509Certificate leaf = server.presented;
        return leaf == null ? null : new Served(leaf, client.asked, List.copyOf(client.issuers));
    }

    private static byte[] read(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null, "the webhook TLS file does not exist (mount the TLS Secret"
                    + " there, or set mooring.webhook.tls.cert-file / key-file; with mooring.webhook.certificates=self-managed"
                    + " it is written once the certificates are made)");
        }
    }

    /** Accepts any server certificate and keeps it: only for {@link #served}, which compares it afterwards. */
    private static final class AnyServer implements X509TrustManager {
        volatile X509Certificate presented;

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("server side only");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            presented = chain.length > 0 ? chain[0] : null;
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    /** Has no client certificate, and notes whether the server asked for one: only for {@link #served}. */
    private static final class NoClientCertificate extends javax.net.ssl.X509ExtendedKeyManager {
        volatile boolean asked;
        final List<javax.security.auth.x500.X500Principal> issuers = new java.util.concurrent.CopyOnWriteArrayList<>();

        private void asked(java.security.Principal[] named) {
            asked = true;
            if (named != null && issuers.isEmpty()) {
                for (java.security.Principal principal : named) {
                    if (principal instanceof javax.security.auth.x500.X500Principal x500) {
                        issuers.add(x500);
                    }
                }
            }
        }

        @Override
        public String[] getClientAliases(String keyType, java.security.Principal[] issuers) {
            asked(issuers);
            return null;
        }

        @Override
        public String chooseClientAlias(String[] keyType, java.security.Principal[] issuers, Socket socket) {
            asked(issuers);
            return null;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, java.security.Principal[] issuers, javax.net.ssl.SSLEngine engine) {
            asked(issuers);
            return null;
        }

        @Override
        public String[] getServerAliases(String keyType, java.security.Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, java.security.Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return null;
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return null;
        }
    }
}
