package dev.mooring.engine.certificates;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * When the self-managed webhook certificates are renewed, and what replaces them: pure policy
 * over {@link WebhookSecret}s and a clock, so that every replica reading the same Secret decides
 * the same.
 *
 * <ul>
 * <li>A certificate is renewed once two thirds of its validity have passed (cert-manager's
 * default {@code renewBefore}), or when it does not fit: a serving certificate for other DNS names,
 * or not signed by the CA.</li>
 * <li>A new CA is made when there is none (no Secret, or one that cannot be read) or the CA is due;
 * the CA it replaces stays in the bundle, second, until the next new CA, so that a replica still
 * serving under it keeps being trusted. Expired CAs leave the bundle.</li>
 * <li>Without a Secret, the CAs this replica trusted before (a deleted Secret: a forced rotation)
 * stay in the new bundle the same way.</li>
 * </ul>
 *
 * @param dnsNames the serving certificate's DNS names, the first its CN
 * @param servingValidity how long a serving certificate is valid
 * @param caValidity how long a CA is valid
 */
public record CertificateRotation(List<String> dnsNames, Duration servingValidity, Duration caValidity) {

    public CertificateRotation {
        dnsNames = List.copyOf(dnsNames);
        if (dnsNames.isEmpty()) {
            throw new IllegalArgumentException("the webhook's serving certificate needs a DNS name");
        }
        if (caValidity.compareTo(servingValidity) < 0) {
            throw new IllegalArgumentException("the webhook CA must be valid at least as long as its serving certificates");
        }
    }

    /**
     * What the Secret should hold now.
     *
     * @param current what it holds, or null when it is absent or unreadable
     * @param trustedBefore the CA bundle this replica served under before (empty at first)
     * @return the new content, or empty when {@code current} stays as it is
     */
    public Optional<WebhookSecret> next(WebhookSecret current, List<X509Certificate> trustedBefore, Instant now) {
        if (current == null || due(current.ca().certificate(), now)) {
            CertificateAuthority.Issued ca = CertificateAuthority.newCa(caName(), now, caValidity);
            List<X509Certificate> bundle = new ArrayList<>(List.of(ca.certificate()));
            List<X509Certificate> previous = current == null ? trustedBefore : List.of(current.ca().certificate());
            previous.stream().filter(certificate -> valid(certificate, now)).limit(1).forEach(bundle::add);
            return Optional.of(new WebhookSecret(ca, bundle, CertificateAuthority.newServing(ca, dnsNames, now, servingValidity)));
        }
        List<X509Certificate> bundle = current.bundle().stream().filter(certificate -> valid(certificate, now)).toList();
        if (due(current.serving().certificate(), now) || !fits(current)) {
            return Optional.of(new WebhookSecret(current.ca(), bundle,
                    CertificateAuthority.newServing(current.ca(), dnsNames, now, servingValidity)));
        }
        if (bundle.size() != current.bundle().size()) {
            return Optional.of(new WebhookSecret(current.ca(), bundle, current.serving()));
        }
        return Optional.empty();
    }

    /** When {@code secret} is next due for a change: the earlier of its certificates' renewal times, or a CA's expiry. */
    public Instant nextChange(WebhookSecret secret) {
        Instant next = renewal(secret.serving().certificate()).isBefore(renewal(secret.ca().certificate()))
                ? renewal(secret.serving().certificate()) : renewal(secret.ca().certificate());
        for (X509Certificate certificate : secret.bundle()) {
            Instant expiry = certificate.getNotAfter().toInstant();
            if (expiry.isBefore(next)) {
                next = expiry;
            }
        }
        return next;
    }

    /** Two thirds into the certificate's validity. */
    static Instant renewal(X509Certificate certificate) {
        Instant start = certificate.getNotBefore().toInstant();
        Duration validity = Duration.between(start, certificate.getNotAfter().toInstant());
        return start.plus(validity.multipliedBy(2).dividedBy(3));
    }

    private static boolean due(X509Certificate certificate, Instant now) {
        return !now.isBefore(renewal(certificate));
    }

    private static boolean valid(X509Certificate certificate, Instant now) {
        return now.isBefore(certificate.getNotAfter().toInstant());
    }

    /** The serving certificate is for these DNS names and signed by the CA. */
    private boolean fits(WebhookSecret secret) {
        return secret.servingSignedByCa() && Set.copyOf(dnsNames).equals(subjectDnsNames(secret.serving().certificate()));
    }

    private String caName() {
        return "mooring webhook CA " + dnsNames.get(0);
    }

    private static Set<String> subjectDnsNames(X509Certificate certificate) {
        Set<String> names = new HashSet<>();
        try {
            if (certificate.getSubjectAlternativeNames() != null) {
                for (List<?> name : certificate.getSubjectAlternativeNames()) {
                    if (Integer.valueOf(2).equals(name.get(0))) {
                        names.add(String.valueOf(name.get(1)));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            return Set.of();
        }
        return names;
    }
}
