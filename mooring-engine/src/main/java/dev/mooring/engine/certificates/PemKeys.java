package dev.mooring.engine.certificates;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the PEM files of a Kubernetes TLS Secret ({@code tls.crt}, {@code tls.key}) or of a
 * kubeconfig's client certificate. Java reads
 * X.509 certificates in PEM itself, and PKCS#8 keys once their base64 is decoded; the PKCS#1
 * ({@code RSA PRIVATE KEY}) and SEC1 ({@code EC PRIVATE KEY}) keys that cert-manager and openssl
 * also write are wrapped into PKCS#8 here, with the few DER structures that takes.
 */
public final class PemKeys {

    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7,
        0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
    private static final byte[] EC_PUBLIC_KEY_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};

    /** More DER than an unencrypted RSA key of 16384 bits takes (about 9.3 KiB); the DER lengths written here stay under 64 KiB. */
    private static final int MAX_KEY_BYTES = 32 * 1024;

    private PemKeys() {
    }

    /**
     * The certificate chain of a PEM file, leaf first.
     *
     * @throws IllegalArgumentException if it holds no certificate or one that does not parse
     */
    public static List<X509Certificate> certificates(byte[] pem, String source) {
        try {
            List<X509Certificate> chain = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem)).stream().map(X509Certificate.class::cast).toList();
            if (chain.isEmpty()) {
                throw new IllegalArgumentException(source + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
            }
            return chain;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(source + " does not hold PEM certificates: " + e.getMessage(), e);
        }
    }

    /**
     * The private key of a PEM file: PKCS#8, PKCS#1 RSA or SEC1 EC, unencrypted.
     *
     * @throws IllegalArgumentException if it holds no such key
     */
    public static PrivateKey privateKey(byte[] pem, String source) {
        Matcher block = BLOCK.matcher(new String(pem, StandardCharsets.US_ASCII));
        while (block.find()) {
            String type = block.group(1);
            if (!type.endsWith("PRIVATE KEY")) {
                continue;
            }
            byte[] der = Base64.getMimeDecoder().decode(block.group(2));
            if (der.length > MAX_KEY_BYTES) {
                throw new IllegalArgumentException(source + " holds a " + type + " of " + der.length
                        + " bytes, more than any RSA, EC or EdDSA key takes");
            }
            byte[] pkcs8 = switch (type) {
                case "PRIVATE KEY" -> der;
                case "RSA PRIVATE KEY" -> sequence(concat(new byte[] {0x02, 0x01, 0x00}, RSA_ALGORITHM, tlv(0x04, der)));
                case "EC PRIVATE KEY" -> sequence(concat(new byte[] {0x02, 0x01, 0x00},
                        sequence(concat(EC_PUBLIC_KEY_OID, curve(der, source))), tlv(0x04, der)));
                case "ENCRYPTED PRIVATE KEY" -> throw new IllegalArgumentException(source + " holds an encrypted key;"
                        + " Mooring needs it unencrypted (openssl pkcs8 -topk8 -nocrypt)");
                default -> throw new IllegalArgumentException(source + " holds a " + type + ", which Mooring cannot read;"
                        + " convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)");
            };
            for (String algorithm : List.of("RSA", "EC", "Ed25519", "Ed448")) {
                try {
                    return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
                } catch (GeneralSecurityException e) {
                    // try the next algorithm
                }
            }
            throw new IllegalArgumentException(source + " holds a private key that is not an RSA, EC or EdDSA key Java can read");
        }
        throw new IllegalArgumentException(source + " holds no PEM private key (-----BEGIN PRIVATE KEY-----)");
    }

    /**
     * @throws IllegalArgumentException if the key does not belong to the certificate
     */
    static void requirePair(PrivateKey key, X509Certificate certificate, String keySource, String certificateSource) {
        byte[] probe = "mooring".getBytes(StandardCharsets.US_ASCII);
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm();
        };
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            if (verifier.verify(signature)) {
                return;
            }
        } catch (GeneralSecurityException e) {
            // a key of another algorithm than the certificate's: not a pair
        }
        throw new IllegalArgumentException("The private key in " + keySource + " does not belong to the certificate in "
                + certificateSource + " (" + certificate.getSubjectX500Principal() + ")");
    }

    /** The curve OID (the [0] parameters) of a SEC1 ECPrivateKey. */
    private static byte[] curve(byte[] sec1, String source) {
        int[] outer = header(sec1, 0, source);
        int position = outer[1];
        int end = outer[1] + outer[2];
        while (position < end) {
            int[] field = header(sec1, position, source);
            if ((sec1[position] & 0xff) == 0xa0) {
                return Arrays.copyOfRange(sec1, field[1], field[1] + field[2]);
            }
            position = field[1] + field[2];
        }
        throw new IllegalArgumentException(source + " holds an EC key without its curve; convert it to PKCS#8"
                + " (openssl pkcs8 -topk8 -nocrypt)");
    }

    /** {tag, content offset, content length} of the DER element at {@code offset}. */
    private static int[] header(byte[] der, int offset, String source) {
        if (offset + 2 > der.length) {
            throw new IllegalArgumentException(source + " holds a malformed EC key: its DER is truncated");
        }
        int length = der[offset + 1] & 0xff;
        int content = offset + 2;
        if (length > 0x7f) {
            int bytes = length & 0x7f;
            if (bytes > 3 || content + bytes > der.length) {
                throw new IllegalArgumentException(source + " holds a malformed EC key: a DER length is malformed");
            }
            length = 0;
            for (int i = 0; i < bytes; i++) {
                length = (length << 8) | (der[content + i] & 0xff);
            }
            content += bytes;
        }
        if (content + length > der.length) {
            throw new IllegalArgumentException(source + " holds a malformed EC key: its DER is truncated");
        }
        return new int[] {der[offset] & 0xff, content, length};
    }

    private static byte[] sequence(byte[] content) {
        return tlv(0x30, content);
    }

    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else if (length < 0x100) {
            out.write(0x81);
            out.write(length);
        } else { // under 64 KiB (MAX_KEY_BYTES)
            out.write(0x82);
            out.write(length >> 8);
            out.write(length);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
