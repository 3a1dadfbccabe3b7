package dev.mooring.engine.certificates;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the webhook port serving the configured certificate: installs the PEM files into
 * Liberty's key store when they are new or changed, then checks with a TLS handshake that the
 * port presents that certificate (and asks for client certificates exactly when they are
 * required). Until it does, the key store is written anew and Liberty is told again to reload it,
 * at most once per {@link #RELOAD_INTERVAL}: whatever order Liberty's start-up and Mooring's
 * first write happen in (a reload that races with the start of the HTTPS channel can leave
 * Liberty's placeholder in place), the port ends up serving the certificate.
 *
 * <p>{@link #check()} does the work and is meant to run on a schedule; {@link #serving()} and
 * {@link #detail()} only read its outcome (readiness probes do no I/O).
 */
public final class ServingCertificate {

    /** The least time between two forced reloads while the port does not serve the certificate. */
    public static final Duration RELOAD_INTERVAL = Duration.ofSeconds(5);

    /**
     * How long the port may answer no TLS at all before that counts as a misconfiguration (no
     * Liberty endpoint on {@code mooring.webhook.port}): 60 seconds, far beyond the seconds
     * Liberty's HTTPS endpoint takes to start.
     */
    public static final Duration UNANSWERED_LIMIT = Duration.ofSeconds(60);

    private static final Logger LOG = Logger.getLogger(ServingCertificate.class.getName());
    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(2);

    /** Checks what the port serves; {@link WebhookTls#served} outside tests. */
    @FunctionalInterface
    public interface Probe {
        WebhookTls.Served served();
    }

    private final WebhookTls tls;
    private final boolean clientCertificateRequired;
    private final Probe probe;
    private final LongSupplier nanoTime;
    private final String where;

    private byte[] installedFiles;
    private X509Certificate installed;
    private long lastReload;
    private int reloads;
    private volatile boolean serving;
    private volatile java.time.Instant notAfter;
    private volatile String detail = "the serving certificate is not installed yet";
    /** Since when the port has answered no TLS (nanoTime), or null while it answers. */
    private Long unansweredSince;
    private volatile String unanswered;

    /**
     * @param tls the files and the key store
     * @param clientCertificateRequired whether the port must ask for client certificates
     * @param host the host of the HTTPS port, seen from this process
     * @param port the HTTPS port
     */
    public ServingCertificate(WebhookTls tls, boolean clientCertificateRequired, String host, int port) {
        this(tls, clientCertificateRequired, () -> WebhookTls.served(host, port, HANDSHAKE_TIMEOUT), System::nanoTime,
                "HTTPS port " + port + " (mooring.webhook.port)");
    }

    ServingCertificate(WebhookTls tls, boolean clientCertificateRequired, Probe probe, LongSupplier nanoTime, String where) {
        this.tls = Objects.requireNonNull(tls);
        this.clientCertificateRequired = clientCertificateRequired;
        this.probe = probe;
        this.nanoTime = nanoTime;
        this.where = where;
    }

    /** True once the port presents the installed certificate, as configured. */
    public boolean serving() {
        return serving;
    }

    /** When the installed certificate expires; empty until one is installed. */
    public java.util.Optional<java.time.Instant> notAfter() {
        return java.util.Optional.ofNullable(notAfter);
    }

    /** What the port serves, or what is missing. */
    public String detail() {
        return detail;
    }

    /**
     * Why the port is taken to be misconfigured: it has answered no TLS for
     * {@link #UNANSWERED_LIMIT}; empty otherwise (it answers, or not for that long yet).
     */
    public java.util.Optional<String> misconfigured() {
        return java.util.Optional.ofNullable(unanswered);
    }

    /** Install what changed, verify what the port serves, and force a reload when it serves something else. */
    public synchronized void check() {
        try {
            byte[] files = tls.fingerprint();
            if (installed == null || !Arrays.equals(files, installedFiles)) {
                installed = tls.install();
                installedFiles = files;
                notAfter = installed.getNotAfter().toInstant();
                serving = false;
                reload();
            }
            if (serving) {
                return;
            }
            WebhookTls.Served served = probe.served();
            noteAnswer(served != null);
            if (served != null && installed.equals(served.certificate())
                    && served.clientCertificateRequested() == clientCertificateRequired && !served.trustsAsClient(installed)) {
                serving = true;
                detail = installed.getSubjectX500Principal() + " on " + where
                        + (clientCertificateRequired ? ", client certificates required" : "");
                LOG.info(() -> "Admission webhooks serve " + detail + " (from " + tls.certificate() + ", after " + reloads
                        + (reloads == 1 ? " reload" : " reloads") + " of the key store)");
                return;
            }
            detail = served == null ? where + " does not answer TLS yet"
                    : !installed.equals(served.certificate()) ? where + " does not present the webhook certificate yet"
                    : served.trustsAsClient(installed) ? where + " still trusts the webhook's own certificate as a client's: Liberty"
                            + " has not loaded " + tls.clientTrustConfiguration() + " yet (server.xml must include it)"
                    : clientCertificateRequired ? where + " does not ask for client certificates: set clientAuthentication=\"true\""
                            + " on Liberty's ssl element (server.xml: ${mooring.webhook.tls.client-auth})"
                    : where + " asks for client certificates, but mooring.webhook.tls.client-auth is not true";
            if (nanoTime.getAsLong() - lastReload >= RELOAD_INTERVAL.toNanos()) {
                // a new file, not just a notification: Liberty's monitor reports only files whose time or size changed,
                // and a reload that raced with the start of the HTTPS channel can leave the placeholder in place
                tls.rewrite();
                reload();
            }
        } catch (Exception e) {
            String problem = "webhook TLS: " + e.getMessage();
            if (!problem.equals(detail)) {
                LOG.severe("Admission webhooks cannot serve: " + problem);
            }
            serving = false;
            detail = problem;
        }
    }

    /** Keeps since when the port answers no TLS; past the limit, says so once at SEVERE. */
    private void noteAnswer(boolean answered) {
        if (answered) {
            unansweredSince = null;
            unanswered = null;
            return;
        }
        long now = nanoTime.getAsLong();
        if (unansweredSince == null) {
            unansweredSince = now;
        } else if (unanswered == null && now - unansweredSince >= UNANSWERED_LIMIT.toNanos()) {
            unanswered = "nothing has answered TLS on " + where + " for " + UNANSWERED_LIMIT.toSeconds()
                    + " s: set it to the HTTPS port of Liberty's httpEndpoint (https.port)";
            LOG.severe("Admission webhooks cannot serve: " + unanswered);
        }
    }

    /** How many times Liberty was told to reload the key store. */
    synchronized int reloads() {
        return reloads;
    }

    private void reload() throws java.io.IOException {
        boolean notified = tls.reload();
        lastReload = nanoTime.getAsLong();
        reloads++;
        LOG.log(Level.FINE, () -> "Key store reload " + reloads + (notified ? " notified" : " by modification time"));
    }
}
