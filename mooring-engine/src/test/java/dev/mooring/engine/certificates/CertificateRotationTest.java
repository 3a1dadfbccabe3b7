package dev.mooring.engine.certificates;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;

/** When the self-managed certificates are renewed and what replaces them, on a fake clock. */
class CertificateRotationTest {

    private static final List<String> NAMES = List.of("ops.team-a.svc", "ops.team-a.svc.cluster.local");
    private static final Instant START = Instant.parse("2026-12-01T00:00:00Z");
    private static final CertificateRotation ROTATION = new CertificateRotation(NAMES, Duration.ofDays(90), Duration.ofDays(3650));

    @Test
    void withoutASecretANewCaSignsAServingCertificateTheJdkTrustsForTheServiceNames() throws Exception {
        WebhookSecret made = ROTATION.next(null, List.of(), START).orElseThrow();
        assertEquals(List.of(made.ca().certificate()), made.bundle());
        assertTrue(made.servingSignedByCa());
        X509Certificate serving = made.serving().certificate();
        assertEquals(START.minus(CertificateAuthority.BACKDATE), serving.getNotBefore().toInstant());
        assertEquals(START.plus(Duration.ofDays(90)), serving.getNotAfter().toInstant());
        assertEquals(List.of("1.3.6.1.5.5.7.3.1"), serving.getExtendedKeyUsage(), "server authentication only");
        assertEquals(-1, serving.getBasicConstraints(), "not a CA");
        assertEquals(0, made.ca().certificate().getBasicConstraints(), "a CA that signs end entities only");
        // what the API server does with the bundle: a PKIX check of the chain for a TLS server
        trusting(made.bundle()).checkServerTrusted(new X509Certificate[] {serving}, "ECDHE_ECDSA");
        CertificateRotation other = new CertificateRotation(List.of("other.team-a.svc"), Duration.ofDays(90), Duration.ofDays(3650));
        assertThrows(CertificateException.class, () -> trusting(other.next(null, List.of(), START).orElseThrow().bundle())
                .checkServerTrusted(new X509Certificate[] {serving}, "ECDHE_ECDSA"), "another CA does not vouch for it");
    }

    @Test
    void theSecretStaysUntilTwoThirdsOfTheServingValidityHavePassed() {
        WebhookSecret made = ROTATION.next(null, List.of(), START).orElseThrow();
        assertEquals(Optional.empty(), ROTATION.next(made, List.of(), START.plus(Duration.ofDays(59))));
        assertEquals(START.minus(CertificateAuthority.BACKDATE).plus(Duration.ofDays(90).plus(CertificateAuthority.BACKDATE)
                .multipliedBy(2).dividedBy(3)), ROTATION.nextChange(made));
        WebhookSecret renewed = ROTATION.next(made, List.of(), ROTATION.nextChange(made)).orElseThrow();
        assertEquals(made.ca(), renewed.ca(), "the CA stays");
        assertEquals(made.bundle(), renewed.bundle());
        assertNotEquals(made.serving().certificate(), renewed.serving().certificate());
        assertNotEquals(made.serving().key(), renewed.serving().key(), "a new key too");
        assertTrue(renewed.servingSignedByCa());
    }

    @Test
    void aDueCaIsReplacedAndStaysTrustedSecondUntilTheNextOne() throws Exception {
        CertificateRotation shortCa = new CertificateRotation(NAMES, Duration.ofDays(30), Duration.ofDays(90));
        WebhookSecret first = shortCa.next(null, List.of(), START).orElseThrow();
        Instant caDue = START.plus(Duration.ofDays(61));
        WebhookSecret second = shortCa.next(first, List.of(), caDue).orElseThrow();
        assertNotEquals(first.ca(), second.ca());
        assertEquals(List.of(second.ca().certificate(), first.ca().certificate()), second.bundle());
        // a replica still serving the first serving certificate is trusted through the new bundle
        trusting(second.bundle()).checkServerTrusted(new X509Certificate[] {first.serving().certificate()}, "ECDHE_ECDSA");
        // the first CA expires: it leaves the bundle without any other change
        Instant firstCaGone = first.ca().certificate().getNotAfter().toInstant().plusSeconds(1);
        WebhookSecret pruned = shortCa.next(second, List.of(), firstCaGone).orElseThrow();
        assertEquals(List.of(second.ca().certificate()), pruned.bundle());
        assertTrue(shortCa.nextChange(second).compareTo(firstCaGone) < 0, "the expiry is a change the check is scheduled for");
    }

    @Test
    void aDeletedSecretIsMadeAnewKeepingTheCaTheReplicaServedUnder() {
        WebhookSecret first = ROTATION.next(null, List.of(), START).orElseThrow();
        WebhookSecret again = ROTATION.next(null, first.bundle(), START.plusSeconds(10)).orElseThrow();
        assertNotEquals(first.ca(), again.ca());
        assertEquals(List.of(again.ca().certificate(), first.ca().certificate()), again.bundle());
        assertEquals("CN=mooring webhook CA ops.team-a.svc", again.ca().certificate().getSubjectX500Principal().getName());
        Instant firstCaGone = first.ca().certificate().getNotAfter().toInstant();
        WebhookSecret late = ROTATION.next(null, first.bundle(), firstCaGone).orElseThrow();
        assertEquals(List.of(late.ca().certificate()), late.bundle(), "an expired CA the replica served under is not kept");
    }

    @Test
    void aCaMustOutliveItsServingCertificates() {
        new CertificateRotation(NAMES, Duration.ofDays(90), Duration.ofDays(90)); // as long is enough
        assertEquals("the webhook CA must be valid at least as long as its serving certificates", assertThrows(
                IllegalArgumentException.class, () -> new CertificateRotation(NAMES, Duration.ofDays(90), Duration.ofDays(89))).getMessage());
        assertEquals("the webhook's serving certificate needs a DNS name", assertThrows(IllegalArgumentException.class,
                () -> new CertificateRotation(List.of(), Duration.ofDays(90), Duration.ofDays(90))).getMessage());
    }

    @Test
    void aServingCertificateForOtherNamesOrAnotherCaIsReissued() {
        WebhookSecret made = ROTATION.next(null, List.of(), START).orElseThrow();
        CertificateRotation renamed = new CertificateRotation(List.of("ops2.team-a.svc"), Duration.ofDays(90), Duration.ofDays(3650));
        WebhookSecret reissued = renamed.next(made, List.of(), START.plusSeconds(1)).orElseThrow();
        assertEquals(made.ca(), reissued.ca());
        assertTrue(reissued.serving().certificate().getSubjectX500Principal().getName().contains("ops2.team-a.svc"));
        WebhookSecret foreign = ROTATION.next(null, List.of(), START).orElseThrow();
        WebhookSecret mixed = new WebhookSecret(made.ca(), made.bundle(), foreign.serving());
        assertTrue(ROTATION.next(mixed, List.of(), START.plusSeconds(1)).orElseThrow().servingSignedByCa());
    }

    @Test
    void theSecretDataReadsBackAndNamesWhatIsMissing() {
        WebhookSecret made = ROTATION.next(null, List.of(), START).orElseThrow();
        Map<String, byte[]> data = made.data();
        WebhookSecret read = WebhookSecret.parse(data, "Secret team-a/ops-tls");
        assertEquals(made.bundle(), read.bundle());
        assertEquals(made.serving().certificate(), read.serving().certificate());
        assertArrayEquals(made.serving().key().getEncoded(), read.serving().key().getEncoded());
        Map<String, byte[]> withoutKey = new java.util.HashMap<>(data);
        withoutKey.remove(WebhookSecret.CA_KEY);
        assertEquals("Secret team-a/ops-tls has no ca.key",
                assertThrows(IllegalArgumentException.class, () -> WebhookSecret.parse(withoutKey, "Secret team-a/ops-tls")).getMessage());
        Map<String, byte[]> swapped = new java.util.HashMap<>(data);
        swapped.put(WebhookSecret.TLS_KEY, data.get(WebhookSecret.CA_KEY));
        String mismatch = assertThrows(IllegalArgumentException.class, () -> WebhookSecret.parse(swapped, "Secret team-a/ops-tls"))
                .getMessage();
        assertTrue(mismatch.contains("tls.key"), mismatch);
    }

    private static X509TrustManager trusting(List<X509Certificate> bundle) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        for (int i = 0; i < bundle.size(); i++) {
            store.setCertificateEntry("ca-" + i, bundle.get(i));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
        factory.init(store);
        return (X509TrustManager) factory.getTrustManagers()[0];
    }
}
