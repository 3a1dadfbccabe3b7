package dev.mooring.engine.certificates;

import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the Secret of the self-managed webhook certificate holds, in the layout of a Kubernetes
 * TLS Secret plus the CA: {@code tls.crt} and {@code tls.key} (the serving certificate and key),
 * {@code ca.crt} (the CA bundle the webhook configurations carry: the signing CA first, then a
 * previous CA that replicas may still be serving under) and {@code ca.key} (the signing CA's key).
 *
 * @param ca the CA that signs serving certificates
 * @param bundle the CAs webhook clients trust, {@code ca} first
 * @param serving the serving certificate and key
 */
public record WebhookSecret(CertificateAuthority.Issued ca, List<X509Certificate> bundle, CertificateAuthority.Issued serving) {

    public static final String TLS_CERT = "tls.crt";
    public static final String TLS_KEY = "tls.key";
    public static final String CA_CERT = "ca.crt";
    public static final String CA_KEY = "ca.key";

    public WebhookSecret {
        Objects.requireNonNull(ca, "ca");
        Objects.requireNonNull(serving, "serving");
        bundle = List.copyOf(bundle);
        if (bundle.isEmpty() || !bundle.get(0).equals(ca.certificate())) {
            throw new IllegalArgumentException("the CA bundle must start with the signing CA");
        }
    }

    /**
     * Reads a Secret's data (decoded bytes by key).
     *
     * @param source the Secret, for messages ({@code namespace/name})
     * @throws IllegalArgumentException naming the Secret and the key that is missing or unreadable,
     *     or when a certificate does not match its key
     */
    public static WebhookSecret parse(Map<String, byte[]> data, String source) {
        List<X509Certificate> bundle = PemKeys.certificates(required(data, CA_CERT, source), source + " " + CA_CERT);
        CertificateAuthority.Issued ca = new CertificateAuthority.Issued(bundle.get(0),
                PemKeys.privateKey(required(data, CA_KEY, source), source + " " + CA_KEY));
        PemKeys.requirePair(ca.key(), ca.certificate(), source + " " + CA_KEY, source + " " + CA_CERT);
        X509Certificate servingCertificate = PemKeys.certificates(required(data, TLS_CERT, source), source + " " + TLS_CERT).get(0);
        CertificateAuthority.Issued serving = new CertificateAuthority.Issued(servingCertificate,
                PemKeys.privateKey(required(data, TLS_KEY, source), source + " " + TLS_KEY));
        PemKeys.requirePair(serving.key(), serving.certificate(), source + " " + TLS_KEY, source + " " + TLS_CERT);
        return new WebhookSecret(ca, bundle, serving);
    }

    /** The Secret's data, in PEM, by key. */
    public Map<String, byte[]> data() {
        Map<String, byte[]> data = new LinkedHashMap<>();
        data.put(CA_CERT, CertificateAuthority.pem(bundle));
        data.put(CA_KEY, ca.keyPem());
        data.put(TLS_CERT, serving.certificatePem());
        data.put(TLS_KEY, serving.keyPem());
        return data;
    }

    /** True when the serving certificate was signed by the signing CA. */
    public boolean servingSignedByCa() {
        try {
            serving.certificate().verify(ca.certificate().getPublicKey());
            return serving.certificate().getIssuerX500Principal().equals(ca.certificate().getSubjectX500Principal());
        } catch (java.security.GeneralSecurityException e) {
            return false;
        }
    }

    private static byte[] required(Map<String, byte[]> data, String key, String source) {
        byte[] value = data == null ? null : data.get(key);
        if (value == null || value.length == 0) {
            throw new IllegalArgumentException(source + " has no " + key);
        }
        return value;
    }
}
