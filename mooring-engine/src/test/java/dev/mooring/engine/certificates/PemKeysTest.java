package dev.mooring.engine.certificates;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;

/**
 * {@link PemKeys}: the key formats of a Kubernetes TLS Secret (PKCS#8, PKCS#1 RSA, SEC1 EC) read back as the key
 * that was written, and every file it cannot use refused with a message that names the file and what is wrong.
 */
class PemKeysTest {

    private static final Instant NOW = Instant.parse("2026-12-07T00:00:00Z");

    private static KeyPair pair(String algorithm, Object parameter) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
        if (parameter instanceof Integer bits) {
            generator.initialize(bits);
        } else if (parameter instanceof String curve) {
            generator.initialize(new ECGenParameterSpec(curve));
        }
        return generator.generateKeyPair();
    }

    /** PEM as openssl and cert-manager write it: PKCS#1 for RSA, SEC1 for EC (BouncyCastle's default for a private key). */
    private static byte[] traditional(PrivateKey key) throws Exception {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(key);
        }
        return out.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] block(String type, byte[] der) {
        return ("-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder().encodeToString(der) + "\n-----END " + type + "-----\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    private static X509Certificate selfSigned(KeyPair pair, String signature) throws Exception {
        X500Name name = new X500Name("CN=pem-keys-test");
        return new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(name, BigInteger.TEN,
                Date.from(NOW), Date.from(NOW.plus(Duration.ofDays(1))), name, pair.getPublic())
                .build(new JcaContentSignerBuilder(signature).build(pair.getPrivate())));
    }

    @Test
    void aPkcs1RsaKeyReadsBackAsTheKeyWritten() throws Exception {
        for (int bits : List.of(1024, 2048)) { // DER lengths in two bytes, small and large
            PrivateKey key = pair("RSA", bits).getPrivate();
            byte[] pem = traditional(key);
            assertTrue(new String(pem, StandardCharsets.US_ASCII).startsWith("-----BEGIN RSA PRIVATE KEY-----"));
            PrivateKey read = PemKeys.privateKey(pem, "tls.key");
            assertEquals("RSA", read.getAlgorithm());
            assertArrayEquals(key.getEncoded(), read.getEncoded(), bits + " bits");
        }
    }

    /** SEC1 as openssl writes it: the curve's OID as [0], the public key as [1]. */
    private static byte[] sec1(KeyPair pair) throws Exception {
        java.security.interfaces.ECPrivateKey key = (java.security.interfaces.ECPrivateKey) pair.getPrivate();
        org.bouncycastle.asn1.ASN1Encodable curve = org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(key.getEncoded())
                .getPrivateKeyAlgorithm().getParameters();
        DERBitString point = new DERBitString(org.bouncycastle.asn1.x509.SubjectPublicKeyInfo.getInstance(pair.getPublic().getEncoded())
                .getPublicKeyData().getBytes());
        return block("EC PRIVATE KEY", new org.bouncycastle.asn1.sec.ECPrivateKey(key.getParams().getOrder().bitLength(), key.getS(),
                point, curve).getEncoded());
    }

    @Test
    void aSec1EcKeyReadsBackAsTheKeyWrittenOnEveryCurve() throws Exception {
        // P-256's SEC1 DER is shorter than 128 bytes, P-384's and P-521's longer: one and two length bytes
        for (String curve : List.of("secp256r1", "secp384r1", "secp521r1")) {
            KeyPair pair = pair("EC", curve);
            PrivateKey key = pair.getPrivate();
            PrivateKey read = PemKeys.privateKey(sec1(pair), "tls.key");
            assertEquals("EC", read.getAlgorithm());
            assertEquals(((java.security.interfaces.ECPrivateKey) key).getS(), ((java.security.interfaces.ECPrivateKey) read).getS(), curve);
            assertEquals(((java.security.interfaces.ECPrivateKey) key).getParams().getCurve(),
                    ((java.security.interfaces.ECPrivateKey) read).getParams().getCurve(), curve);
        }
    }

    @Test
    void pkcs8KeysOfEveryAlgorithmReadAsTheyAre() throws Exception {
        for (PrivateKey key : List.of(pair("RSA", 1024).getPrivate(), pair("EC", "secp256r1").getPrivate(),
                pair("Ed25519", null).getPrivate())) {
            PrivateKey read = PemKeys.privateKey(block("PRIVATE KEY", key.getEncoded()), "tls.key");
            assertArrayEquals(key.getEncoded(), read.getEncoded(), key.getAlgorithm());
        }
    }

    @Test
    void blocksOtherThanKeysAreSkipped() throws Exception {
        KeyPair pair = pair("EC", "secp256r1");
        byte[] certificate = CertificateAuthority.pem(selfSigned(pair, "SHA256withECDSA"));
        byte[] key = block("PRIVATE KEY", pair.getPrivate().getEncoded());
        byte[] both = new byte[certificate.length + key.length];
        System.arraycopy(certificate, 0, both, 0, certificate.length);
        System.arraycopy(key, 0, both, certificate.length, key.length);
        assertArrayEquals(pair.getPrivate().getEncoded(), PemKeys.privateKey(both, "bundle.pem").getEncoded());
    }

    @Test
    void whatIsNotAKeyItCanReadIsRefusedNamingTheFileAndTheFix() throws Exception {
        assertEquals("tls.key holds no PEM private key (-----BEGIN PRIVATE KEY-----)", assertThrows(IllegalArgumentException.class,
                () -> PemKeys.privateKey(block("CERTIFICATE", new byte[] {1, 2, 3}), "tls.key")).getMessage());
        assertEquals("tls.key holds an encrypted key; Mooring needs it unencrypted (openssl pkcs8 -topk8 -nocrypt)",
                assertThrows(IllegalArgumentException.class,
                        () -> PemKeys.privateKey(block("ENCRYPTED PRIVATE KEY", new byte[] {1, 2, 3}), "tls.key")).getMessage());
        assertEquals("tls.key holds a DSA PRIVATE KEY, which Mooring cannot read; convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)",
                assertThrows(IllegalArgumentException.class,
                        () -> PemKeys.privateKey(block("DSA PRIVATE KEY", new byte[] {1, 2, 3}), "tls.key")).getMessage());
        assertEquals("tls.key holds a private key that is not an RSA, EC or EdDSA key Java can read",
                assertThrows(IllegalArgumentException.class,
                        () -> PemKeys.privateKey(block("PRIVATE KEY", new byte[] {0x30, 0x03, 0x02, 0x01, 0x00}), "tls.key")).getMessage());
        assertEquals("tls.key holds a RSA PRIVATE KEY of 40000 bytes, more than any RSA, EC or EdDSA key takes",
                assertThrows(IllegalArgumentException.class,
                        () -> PemKeys.privateKey(block("RSA PRIVATE KEY", new byte[40_000]), "tls.key")).getMessage());
        // exactly the limit is still read (and then found not to be a key)
        assertEquals("tls.key holds a private key that is not an RSA, EC or EdDSA key Java can read",
                assertThrows(IllegalArgumentException.class,
                        () -> PemKeys.privateKey(block("PRIVATE KEY", new byte[32 * 1024]), "tls.key")).getMessage());
    }

    @Test
    void aMalformedEcKeyIsRefusedNamingTheFile() throws Exception {
        // SEC1 without its [0] curve parameters (allowed by RFC 5915, unreadable without them)
        byte[] noCurve = new DERSequence(new org.bouncycastle.asn1.ASN1Encodable[] {new ASN1Integer(1),
            new DEROctetString(new byte[32]), new org.bouncycastle.asn1.DERTaggedObject(true, 1, new DERBitString(new byte[65]))})
                .getEncoded();
        assertEquals("tls.key holds an EC key without its curve; convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)",
                assertThrows(IllegalArgumentException.class, () -> PemKeys.privateKey(block("EC PRIVATE KEY", noCurve), "tls.key"))
                        .getMessage());
        byte[] valid = Base64.getMimeDecoder().decode(new String(sec1(pair("EC", "secp384r1")),
                StandardCharsets.US_ASCII).replaceAll("-----[A-Z ]+-----", ""));
        for (int cut : List.of(1, 3, 40, valid.length - 1)) {
            byte[] truncated = java.util.Arrays.copyOf(valid, cut);
            assertEquals("tls.key holds a malformed EC key: its DER is truncated", assertThrows(IllegalArgumentException.class,
                    () -> PemKeys.privateKey(block("EC PRIVATE KEY", truncated), "tls.key")).getMessage(), cut + " bytes");
        }
        byte[] fieldTruncated = {0x30, 0x03, 0x04, 0x05, 0x00};
        assertEquals("tls.key holds a malformed EC key: its DER is truncated", assertThrows(IllegalArgumentException.class,
                () -> PemKeys.privateKey(block("EC PRIVATE KEY", fieldTruncated), "tls.key")).getMessage(), "a field longer than the key");
        byte[] fourLengthBytes = {0x30, (byte) 0x84, 0, 0, 0, 1, 0};
        assertEquals("tls.key holds a malformed EC key: a DER length is malformed", assertThrows(IllegalArgumentException.class,
                () -> PemKeys.privateKey(block("EC PRIVATE KEY", fourLengthBytes), "tls.key")).getMessage());
        byte[] lengthBytesMissing = {0x30, (byte) 0x82, 1};
        assertEquals("tls.key holds a malformed EC key: a DER length is malformed", assertThrows(IllegalArgumentException.class,
                () -> PemKeys.privateKey(block("EC PRIVATE KEY", lengthBytesMissing), "tls.key")).getMessage());
        // three length bytes are read as a length (then found longer than what follows)
        byte[] threeLengthBytes = {0x30, (byte) 0x83, 0, 0, 3, 0x02, 0x01, 0x01};
        assertEquals("tls.key holds an EC key without its curve; convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)",
                assertThrows(IllegalArgumentException.class,
                        () -> PemKeys.privateKey(block("EC PRIVATE KEY", threeLengthBytes), "tls.key")).getMessage());
    }

    @Test
    void aKeyBelongsToItsCertificateOnly() throws Exception {
        KeyPair rsa = pair("RSA", 1024);
        X509Certificate rsaCertificate = selfSigned(rsa, "SHA256withRSA");
        PemKeys.requirePair(rsa.getPrivate(), rsaCertificate, "tls.key", "tls.crt");
        KeyPair ec = pair("EC", "secp256r1");
        X509Certificate ecCertificate = selfSigned(ec, "SHA256withECDSA");
        PemKeys.requirePair(ec.getPrivate(), ecCertificate, "tls.key", "tls.crt");
        KeyPair ed = pair("Ed25519", null);
        PemKeys.requirePair(ed.getPrivate(), selfSigned(ed, "Ed25519"), "tls.key", "tls.crt");

        String expected = "The private key in tls.key does not belong to the certificate in tls.crt (CN=pem-keys-test)";
        assertEquals(expected, assertThrows(IllegalArgumentException.class,
                () -> PemKeys.requirePair(pair("RSA", 1024).getPrivate(), rsaCertificate, "tls.key", "tls.crt")).getMessage());
        assertEquals(expected, assertThrows(IllegalArgumentException.class,
                () -> PemKeys.requirePair(pair("EC", "secp256r1").getPrivate(), ecCertificate, "tls.key", "tls.crt")).getMessage());
        assertEquals(expected, assertThrows(IllegalArgumentException.class,
                () -> PemKeys.requirePair(ec.getPrivate(), rsaCertificate, "tls.key", "tls.crt")).getMessage(), "another algorithm");
    }

    @Test
    void certificatesAreReadLeafFirstAndAFileWithoutOneIsRefused() throws Exception {
        X509Certificate first = selfSigned(pair("EC", "secp256r1"), "SHA256withECDSA");
        X509Certificate second = selfSigned(pair("EC", "secp256r1"), "SHA256withECDSA");
        assertEquals(List.of(first, second), PemKeys.certificates(CertificateAuthority.pem(List.of(first, second)), "tls.crt"));
        assertEquals("tls.crt holds no PEM certificate (-----BEGIN CERTIFICATE-----)", assertThrows(IllegalArgumentException.class,
                () -> PemKeys.certificates(new byte[0], "tls.crt")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> PemKeys.certificates(block("CERTIFICATE", new byte[] {0x30, 0x00}), "tls.crt")).getMessage()
                .startsWith("tls.crt does not hold PEM certificates: "));
    }
}
