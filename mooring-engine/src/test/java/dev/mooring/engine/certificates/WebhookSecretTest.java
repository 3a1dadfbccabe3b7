package dev.mooring.engine.certificates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;

/** {@link WebhookSecret}: the Secret's data read back as written, and a Secret whose keys and certificates do not match refused by key. */
class WebhookSecretTest {

    private static final Instant NOW = Instant.parse("2026-12-07T00:00:00Z");
    private static final String SOURCE = "operators/widgets-webhook";

    private final CertificateAuthority.Issued ca = CertificateAuthority.newCa("mooring webhook CA", NOW, Duration.ofDays(30));
    private final CertificateAuthority.Issued serving = CertificateAuthority.newServing(ca, List.of("widgets.operators.svc"), NOW,
            Duration.ofDays(7));

    @Test
    void theDataReadsBackAsWritten() {
        CertificateAuthority.Issued previous = CertificateAuthority.newCa("previous CA", NOW, Duration.ofDays(30));
        WebhookSecret written = new WebhookSecret(ca, List.of(ca.certificate(), previous.certificate()), serving);
        WebhookSecret read = WebhookSecret.parse(written.data(), SOURCE);
        assertEquals(List.of(ca.certificate(), previous.certificate()), read.bundle());
        assertEquals(ca.certificate(), read.ca().certificate());
        assertEquals(serving.certificate(), read.serving().certificate());
        assertEquals(List.of(WebhookSecret.CA_CERT, WebhookSecret.CA_KEY, WebhookSecret.TLS_CERT, WebhookSecret.TLS_KEY),
                List.copyOf(written.data().keySet()));
        assertTrue(read.servingSignedByCa());
    }

    @Test
    void aKeyOfAnotherCertificateIsRefusedNamingTheSecretAndTheKey() {
        CertificateAuthority.Issued other = CertificateAuthority.newCa("other CA", NOW, Duration.ofDays(30));
        Map<String, byte[]> data = new HashMap<>(new WebhookSecret(ca, List.of(ca.certificate()), serving).data());
        data.put(WebhookSecret.CA_KEY, other.keyPem());
        assertEquals("The private key in " + SOURCE + " ca.key does not belong to the certificate in " + SOURCE
                + " ca.crt (CN=mooring webhook CA)", assertThrows(IllegalArgumentException.class,
                        () -> WebhookSecret.parse(data, SOURCE)).getMessage());
        data.put(WebhookSecret.CA_KEY, ca.keyPem());
        data.put(WebhookSecret.TLS_KEY, other.keyPem());
        assertEquals("The private key in " + SOURCE + " tls.key does not belong to the certificate in " + SOURCE
                + " tls.crt (CN=widgets.operators.svc)", assertThrows(IllegalArgumentException.class,
                        () -> WebhookSecret.parse(data, SOURCE)).getMessage());
        data.put(WebhookSecret.TLS_KEY, new byte[0]);
        assertEquals(SOURCE + " has no tls.key", assertThrows(IllegalArgumentException.class,
                () -> WebhookSecret.parse(data, SOURCE)).getMessage());
        assertEquals(SOURCE + " has no ca.crt", assertThrows(IllegalArgumentException.class,
                () -> WebhookSecret.parse(null, SOURCE)).getMessage());
    }

    @Test
    void aServingCertificateIsTheSigningCasOnlyWhenItsSignatureAndIssuerAreTheCas() throws Exception {
        CertificateAuthority.Issued other = CertificateAuthority.newCa("other CA", NOW, Duration.ofDays(30));
        CertificateAuthority.Issued foreign = CertificateAuthority.newServing(other, List.of("widgets.operators.svc"), NOW,
                Duration.ofDays(7));
        assertFalse(new WebhookSecret(ca, List.of(ca.certificate()), foreign).servingSignedByCa(), "signed by another CA");
        // signed with the CA's key but naming another issuer: not a certificate of this CA's chain
        X500Name subject = new X500Name("CN=widgets.operators.svc");
        X509Certificate misnamed = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(
                new X500Name("CN=someone else"), BigInteger.TWO, Date.from(NOW), Date.from(NOW.plus(Duration.ofDays(1))), subject,
                serving.certificate().getPublicKey()).build(new JcaContentSignerBuilder("SHA256withECDSA").build(ca.key())));
        assertFalse(new WebhookSecret(ca, List.of(ca.certificate()),
                new CertificateAuthority.Issued(misnamed, serving.key())).servingSignedByCa(), "another issuer named");
        assertEquals("the CA bundle must start with the signing CA", assertThrows(IllegalArgumentException.class,
                () -> new WebhookSecret(ca, List.of(other.certificate(), ca.certificate()), serving)).getMessage());
    }
}
