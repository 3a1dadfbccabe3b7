package dev.mooring.engine.certificates;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Makes the certificates of the self-managed webhook CA: a self-signed CA, and serving
 * certificates it signs for the webhook Service's DNS names. Keys are ECDSA P-256, signatures
 * SHA-256, through the JDK's own providers (Bouncy Castle only encodes the certificates; the JDK
 * has no public API for that). Certificates start a minute before {@code now}, so that a clock a
 * little behind the operator's still accepts them.
 */
public final class CertificateAuthority {

    /** How far back a new certificate's validity starts, for clocks that are a little behind. */
    static final Duration BACKDATE = Duration.ofMinutes(1);

    /**
     * A certificate and its private key.
     *
     * @param certificate the X.509 certificate
     * @param key its private key
     */
    public record Issued(X509Certificate certificate, PrivateKey key) {

        public Issued {
            Objects.requireNonNull(certificate, "certificate");
            Objects.requireNonNull(key, "key");
        }

        /** The certificate in PEM. */
        public byte[] certificatePem() {
            return pem(certificate);
        }

        /** The private key in PEM (PKCS#8). */
        public byte[] keyPem() {
            return pem("PRIVATE KEY", key.getEncoded());
        }
    }

    private CertificateAuthority() {
    }

    /**
     * A new self-signed CA certificate, able to sign end-entity certificates only (path length 0).
     *
     * @param commonName its subject's CN
     * @param now the start of its validity (less {@link #BACKDATE})
     * @param validity how long it is valid from {@code now}
     * @throws IllegalStateException if the JDK cannot make an EC P-256 key or sign (a broken JDK)
     */
    public static Issued newCa(String commonName, Instant now, Duration validity) {
        KeyPair pair = keyPair();
        X500Name subject = name(commonName);
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = builder(subject, subject, pair, now, validity)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(pair.getPublic()));
            return new Issued(sign(builder, pair.getPrivate()), pair.getPrivate());
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot make the webhook CA certificate: " + e.getMessage(), e);
        }
    }

    /**
     * A new serving certificate signed by {@code ca}: for TLS servers only (EKU serverAuth), with
     * {@code dnsNames} as its subject alternative names and the first as its CN. Its validity ends
     * no later than the CA's.
     *
     * @throws IllegalArgumentException if there is no DNS name
     */
    public static Issued newServing(Issued ca, List<String> dnsNames, Instant now, Duration validity) {
        if (dnsNames.isEmpty()) {
            throw new IllegalArgumentException("a serving certificate needs at least one DNS name");
        }
        KeyPair pair = keyPair();
        Instant caEnd = ca.certificate().getNotAfter().toInstant();
        Duration bounded = now.plus(validity).isAfter(caEnd) ? Duration.between(now, caEnd) : validity;
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            GeneralName[] names = dnsNames.stream().map(dns -> new GeneralName(GeneralName.dNSName, dns)).toArray(GeneralName[]::new);
            X509v3CertificateBuilder builder = builder(X500Name.getInstance(ca.certificate().getSubjectX500Principal().getEncoded()),
                    name(dnsNames.get(0)), pair, now, bounded)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            extensions.createAuthorityKeyIdentifier(ca.certificate()));
            return new Issued(sign(builder, ca.key()), pair.getPrivate());
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot make the webhook serving certificate: " + e.getMessage(), e);
        }
    }

    /** PEM of one certificate. */
    public static byte[] pem(X509Certificate certificate) {
        try {
            return pem("CERTIFICATE", certificate.getEncoded());
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException("cannot encode " + certificate.getSubjectX500Principal() + ": " + e.getMessage(), e);
        }
    }

    /** PEM of several certificates, one block after the other. */
    public static byte[] pem(List<X509Certificate> certificates) {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        certificates.forEach(certificate -> all.writeBytes(pem(certificate)));
        return all.toByteArray();
    }

    private static byte[] pem(String type, byte[] der) {
        String base64 = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
        return ("-----BEGIN " + type + "-----\n" + base64 + "\n-----END " + type + "-----\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static X500Name name(String commonName) {
        // CN values are at most 64 characters (RFC 5280's ub-common-name); DNS names can be longer, the SANs carry them
        String cn = commonName.length() <= 64 ? commonName : commonName.substring(0, 64);
        return new X500Name(new org.bouncycastle.asn1.x500.RDN[] {new org.bouncycastle.asn1.x500.RDN(
                org.bouncycastle.asn1.x500.style.BCStyle.CN, new org.bouncycastle.asn1.DERUTF8String(cn))});
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair pair, Instant now, Duration validity) {
        BigInteger serial = new BigInteger(127, new SecureRandom()).add(BigInteger.ONE);
        return new JcaX509v3CertificateBuilder(issuer, serial, Date.from(now.minus(BACKDATE)), Date.from(now.plus(validity)),
                subject, pair.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key) throws GeneralSecurityException {
        try {
            ContentSigner signer = new JcaContentSignerBuilder("SHA256withECDSA").build(key);
            byte[] der = builder.build(signer).getEncoded();
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new java.io.ByteArrayInputStream(der));
        } catch (OperatorCreationException | java.io.IOException e) {
            throw new GeneralSecurityException(e.getMessage(), e);
        }
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make an EC P-256 key: " + e.getMessage(), e);
        }
    }
}
