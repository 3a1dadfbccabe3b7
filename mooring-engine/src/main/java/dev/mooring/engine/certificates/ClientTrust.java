package dev.mooring.engine.certificates;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Which client certificates may call the webhooks: with {@code mooring.webhook.tls.client-auth},
 * only a chain that leads to a CA of {@code mooring.webhook.tls.client-ca-file}, with a leaf valid
 * now and usable for TLS clients (an extended key usage, when present, includes
 * {@code clientAuth}).
 *
 * <p>Why a check of Mooring's own and not only Liberty's: Liberty's HTTPS port reads one key store
 * for its certificate and, unless another store exists when the server starts, for the
 * certificates it trusts; the JDK trusts the leaf of every key entry of a trust store, so the
 * webhook's own serving certificate was accepted as a client certificate. Mooring writes that
 * store after Liberty has started, so no second store can exist at start without an error in the
 * log. Liberty's handshake still asks for and checks a client certificate; this check then answers
 * 403 to every request whose chain does not lead to the CA file (see {@link dev.mooring.engine.admission.AdmissionDispatcher}).
 *
 * <p>The CA file is read again when it changes ({@link #refresh()}, on the same schedule as the
 * serving certificate), so a rotated CA takes effect without a restart.
 */
public final class ClientTrust {

    /** Accepts every request: client certificates are not required. */
    public static final ClientTrust ANY = new ClientTrust(null, null);

    private static final Logger LOG = Logger.getLogger(ClientTrust.class.getName());
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final String ANY_USAGE = "2.5.29.37.0";

    private final Path caFile;
    private final String refuseAll;
    private volatile byte[] read;
    private volatile Set<TrustAnchor> anchors = Set.of();
    private volatile String problem = "the client CA file has not been read yet";

    /**
     * @param caFile the PEM CA certificates client certificates must lead to
     */
    public ClientTrust(Path caFile) {
        this(java.util.Objects.requireNonNull(caFile, "caFile"), null);
    }

    private ClientTrust(Path caFile, String refuseAll) {
        this.caFile = caFile;
        this.refuseAll = refuseAll;
    }

    /** Refuses every request, saying {@code why}: for webhooks whose TLS settings could not be read. */
    public static ClientTrust refusing(String why) {
        return new ClientTrust(null, java.util.Objects.requireNonNull(why));
    }

    /** True when client certificates are checked. */
    public boolean required() {
        return caFile != null;
    }

    /** Reads the CA file again if it changed; a file that cannot be read leaves every request refused, naming why. */
    public void refresh() {
        if (caFile == null) {
            return;
        }
        try {
            byte[] bytes = Files.readAllBytes(caFile);
            if (Arrays.equals(bytes, read)) {
                return;
            }
            List<X509Certificate> cas = PemKeys.certificates(bytes, caFile.toString());
            Set<TrustAnchor> trusted = new HashSet<>();
            cas.forEach(ca -> trusted.add(new TrustAnchor(ca, null)));
            anchors = Set.copyOf(trusted);
            problem = null;
            read = bytes;
            LOG.info(() -> "Admission webhooks accept client certificates of " + cas.size() + " CA certificate"
                    + (cas.size() == 1 ? "" : "s") + " of " + caFile);
        } catch (IOException | RuntimeException e) {
            String why = "the client CA file " + caFile + " cannot be read: " + e.getMessage();
            if (!why.equals(problem)) {
                LOG.severe("Admission webhooks refuse every client certificate: " + why);
            }
            anchors = Set.of();
            problem = why;
            read = null;
        }
    }

    /**
     * Whether a request with this client certificate chain may be admitted.
     *
     * @param chain the chain the client presented, leaf first; null or empty when it presented none
     * @return null when it may, else why not (for the answer; names no certificate content)
     */
    public String refusal(X509Certificate[] chain) {
        if (refuseAll != null) {
            return refuseAll;
        }
        if (caFile == null) {
            return null;
        }
        if (chain == null || chain.length == 0) {
            return "no client certificate was presented";
        }
        Set<TrustAnchor> trusted = anchors;
        if (trusted.isEmpty()) {
            return problem;
        }
        try {
            List<String> usages = chain[0].getExtendedKeyUsage();
            if (usages != null && !usages.contains(CLIENT_AUTH) && !usages.contains(ANY_USAGE)) {
                return "the client certificate is not for TLS clients (no clientAuth extended key usage)";
            }
            PKIXParameters parameters = new PKIXParameters(trusted);
            parameters.setRevocationEnabled(false);
            // a path ends below its trust anchor: a client that sends its CA along sends one certificate more
            List<X509Certificate> path = Arrays.stream(chain)
                    .filter(certificate -> trusted.stream().noneMatch(anchor -> certificate.equals(anchor.getTrustedCert())))
                    .toList();
            if (path.isEmpty()) {
                return "the client certificate is a CA certificate, not a client's";
            }
            CertPathValidator.getInstance("PKIX").validate(CertificateFactory.getInstance("X.509").generateCertPath(path),
                    parameters);
            return null;
        } catch (GeneralSecurityException e) {
            return "the client certificate does not lead to a CA of mooring.webhook.tls.client-ca-file";
        }
    }
}
