package dev.mooring.runtime;

import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.model.Durations;
import dev.mooring.engine.replica.ElectionSettings;
import dev.mooring.engine.replica.ReplicaMode;
import dev.mooring.engine.replica.ShardSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * The runtime's global settings, read through MicroProfile Config (server.xml variables,
 * system properties, environment variables such as {@code MOORING_NAMESPACE}, and
 * {@code META-INF/microprofile-config.properties}, in the usual MicroProfile order).
 *
 * <p>Every key is documented in {@code docs/reference/configuration.md}. A value that does not parse fails with a message
 * naming the key.
 */
@ApplicationScoped
public class MooringConfig {

    static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    @Inject
    Config config;

    /** Where a pod's service account namespace is mounted (another file in tests). */
    private Path serviceAccountNamespace = SERVICE_ACCOUNT_NAMESPACE;

    /** For CDI. */
    public MooringConfig() {
    }

    /** Over a given configuration (for the deployment-time check). */
    MooringConfig(Config config) {
        this.config = config;
    }

    /** Over a given configuration, as in a pod whose service account namespace is in {@code serviceAccountNamespace}. */
    MooringConfig(Config config, Path serviceAccountNamespace) {
        this.config = config;
        this.serviceAccountNamespace = serviceAccountNamespace;
    }

    /**
     * {@code mooring.namespace}: the operator's namespace, the default scope of controllers.
     * Defaults to the in-cluster service account's namespace, else {@code default}.
     */
    public String namespace() {
        return dev.mooring.engine.kube.KubeNames.namespace(config.getOptionalValue("mooring.namespace", String.class)
                .map(String::trim)
                .filter(value -> !value.isEmpty())
                .or(this::serviceAccountNamespace)
                .orElse("default"), "mooring.namespace");
    }

    /** {@code mooring.kubeconfig}: path of a kubeconfig file (see {@link KubernetesConnection} for the order). */
    public Optional<Path> kubeconfig() {
        return config.getOptionalValue("mooring.kubeconfig", String.class).filter(v -> !v.isBlank()).map(Path::of);
    }

    /**
     * {@code mooring.watch.idle-timeout}: a watch that delivers neither an event nor a bookmark
     * for this long is checked with a one-object list: resumed when the API server answers (a
     * quiet kind), re-established when not. Default 120 seconds, at most {@link #MAX_WATCH_IDLE_TIMEOUT}.
     * Durations are written {@code 120}, {@code 120s}, {@code 2m} or {@code PT2M}.
     *
     * @throws IllegalArgumentException naming the property and the value
     */
    public Duration watchIdleTimeout() {
        return bounded("mooring.watch.idle-timeout", 120, MAX_WATCH_IDLE_TIMEOUT);
    }

    /**
     * {@code mooring.request.timeout}: read timeout of ordinary API requests. Default 30 seconds,
     * at most {@link #MAX_REQUEST_TIMEOUT}.
     *
     * @throws IllegalArgumentException naming the property and the value
     */
    public Duration requestTimeout() {
        return bounded("mooring.request.timeout", 30, MAX_REQUEST_TIMEOUT);
    }

    /**
     * {@code mooring.connection.ping-interval}: how often an HTTP/2 ping is sent on each connection
     * to the API server; a connection whose ping is not answered by the next one is closed, which
     * fails the watches and requests on it at once. A hung API server (its process stopped, the
     * connection open) is so seen within two intervals. Default 2 seconds (a hang seen within 4 s;
     * the cost is a 17-byte frame and its answer per connection per interval), at most
     * {@link #MAX_REQUEST_TIMEOUT}. Connections over HTTP/1.1 (some proxies) are not pinged: there a
     * silent watch is found by {@code mooring.watch.idle-timeout}.
     *
     * @throws IllegalArgumentException naming the property and the value
     */
    public Duration pingInterval() {
        return bounded("mooring.connection.ping-interval", 2, MAX_REQUEST_TIMEOUT);
    }

    /**
     * {@code mooring.namespaces.poll-interval}: how often the {@code namespaces} property of each
     * controller that watches a namespace set is read again, its changes applied without a
     * restart. Default 10 seconds, at most {@link #MAX_REQUEST_TIMEOUT}.
     *
     * @throws IllegalArgumentException naming the property and the value
     */
    public Duration namespacesPollInterval() {
        return bounded("mooring.namespaces.poll-interval", 10, MAX_REQUEST_TIMEOUT);
    }

    /** The longest {@code mooring.read-your-writes.max-wait}: 1 minute. */
    public static final Duration MAX_READ_YOUR_WRITES_WAIT = Duration.ofMinutes(1);

    /**
     * {@code mooring.read-your-writes.enabled} (default true) and
     * {@code mooring.read-your-writes.max-wait} (default 2 seconds, at most
     * {@link #MAX_READ_YOUR_WRITES_WAIT}): whether a pass waits, before it reads a cache, until the
     * cache has delivered this runtime's own earlier writes of what it reads, and for how long at most.
     *
     * @throws IllegalArgumentException naming the property and the value
     */
    public dev.mooring.engine.informer.ReadYourWrites.Settings readYourWrites() {
        boolean enabled = trueOrFalse(config, "mooring.read-your-writes.enabled", true);
        Duration bound = bounded("mooring.read-your-writes.max-wait", 2, MAX_READ_YOUR_WRITES_WAIT);
        return new dev.mooring.engine.informer.ReadYourWrites.Settings(enabled, enabled ? bound : Duration.ZERO);
    }

    /** The longest {@code mooring.request.timeout}: 1 hour. */
    public static final Duration MAX_REQUEST_TIMEOUT = Duration.ofHours(1);

    /** The longest {@code mooring.watch.idle-timeout}: 24 hours. */
    public static final Duration MAX_WATCH_IDLE_TIMEOUT = Duration.ofHours(24);

    /**
     * {@code mooring.retry.base-delay} and {@code mooring.retry.max-delay}: the first retry delay
     * of a failed reconcile (default 1 s) and the cap of its doubling (default 60 s), which also
     * caps the backoff of watch reconnects.
     *
     * @throws IllegalArgumentException naming the property, unless 0 &lt; base &lt;= max
     */
    public OperatorRuntime.Retry retry() {
        Duration base = seconds("mooring.retry.base-delay", 1);
        Duration max = seconds("mooring.retry.max-delay", 60);
        if (max.compareTo(base) < 0) {
            throw new IllegalArgumentException("mooring.retry.max-delay (" + max + ") must not be less than"
                    + " mooring.retry.base-delay (" + base + ")");
        }
        return new OperatorRuntime.Retry(base, max);
    }

    /**
     * The webhook's TLS files: {@code mooring.webhook.tls.cert-file} and
     * {@code mooring.webhook.tls.key-file} (PEM, default {@code /var/run/mooring/tls/tls.crt} and
     * {@code tls.key}, where the TLS Secret is mounted), written to the key store Liberty's HTTPS
     * port reads: {@code mooring.webhook.tls.keystore} (server.xml sets it to
     * {@code ${server.output.dir}/resources/security/mooring-webhook.p12}) with
     * {@code mooring.webhook.tls.keystore-password}. With {@code mooring.webhook.tls.client-ca-file}
     * (PEM), its CA certificates are written to the same key store, which Liberty uses as trust
     * store for client certificates.
     *
     * @throws IllegalArgumentException if the key store location is not configured
     */
    public dev.mooring.engine.certificates.WebhookTls webhookTls() {
        String keyStore = config.getOptionalValue("mooring.webhook.tls.keystore", String.class)
                .filter(value -> !value.isBlank() && !value.contains("${"))
                .or(() -> Optional.ofNullable(System.getProperty("server.output.dir"))
                        .map(dir -> dir + "/resources/security/mooring-webhook.p12"))
                .orElseThrow(() -> new IllegalArgumentException("mooring.webhook.tls.keystore is not set: it must name the"
                        + " PKCS#12 file of Liberty's defaultKeyStore (see server.xml)"));
        // self-managed: the files Mooring writes from its Secret, beside the key store (in the server's output)
        Path selfManaged = Path.of(keyStore).toAbsolutePath().resolveSibling("mooring-webhook-self-managed");
        boolean self = selfManagedCertificates(config);
        Path certificate = self ? selfManaged.resolve("tls.crt") : Path.of(text("mooring.webhook.tls.cert-file", "/var/run/mooring/tls/tls.crt"));
        Path key = self ? selfManaged.resolve("tls.key") : Path.of(text("mooring.webhook.tls.key-file", "/var/run/mooring/tls/tls.key"));
        return new dev.mooring.engine.certificates.WebhookTls(certificate, key,
                config.getOptionalValue(CLIENT_CA_FILE, String.class).filter(value -> !value.isBlank()).map(Path::of).orElse(null),
                Path.of(keyStore),
                text("mooring.webhook.tls.keystore-password", "mooring-webhook").toCharArray(),
                config.getOptionalValue("mooring.webhook.tls.client-trust", String.class)
                        .filter(value -> !value.isBlank() && !value.contains("${")).map(Path::of)
                        .orElse(Path.of(keyStore).toAbsolutePath().resolveSibling("mooring-webhook-clients")));
    }

    static final String CERTIFICATES = "mooring.webhook.certificates";

    /**
     * {@code mooring.webhook.certificates}: where the webhook's serving certificate comes from.
     * {@code files} (the default): the PEM files of {@code mooring.webhook.tls.cert-file} and
     * {@code key-file}, a TLS Secret mounted there (made by hand or by cert-manager).
     * {@code self-managed}: Mooring makes its CA and serving certificate, keeps them in a Secret
     * and writes the CA bundle into its webhook configurations (see
     * {@link #selfManagedCertificates()}).
     *
     * @throws IllegalArgumentException naming the property for another value
     */
    static boolean selfManagedCertificates(Config config) {
        String value = config.getOptionalValue(CERTIFICATES, String.class).map(String::trim).orElse("files");
        return switch (value) {
            case "files", "" -> false;
            case "self-managed" -> true;
            default -> throw new IllegalArgumentException(CERTIFICATES + " must be files or self-managed, not '" + value + "'");
        };
    }

    /**
     * The settings of {@code mooring.webhook.certificates=self-managed}, else empty:
     * {@code .service} (required: the webhook Service, whose DNS names the certificate is for),
     * {@code .secret} (default {@code <service>-tls}), {@code .webhook-configuration} (the
     * validating and mutating configurations' name, default {@code <service>.<namespace>.svc}),
     * {@code .service-account} (the ServiceAccount that owns the Secret, default none),
     * {@code .validity} (of a serving certificate, default 90 days, renewed after two thirds) and
     * {@code .ca-validity} (default 3650 days, at least {@code .validity}), in the operator's namespace;
     * both configurations are assumed (see {@code Settings.withWebhooks}).
     *
     * @throws IllegalArgumentException naming the property whose value is missing or wrong
     */
    public Optional<dev.mooring.engine.certificates.CertificateSettings> selfManagedCertificates() {
        return selfManagedCertificates(config, namespace());
    }

    static Optional<dev.mooring.engine.certificates.CertificateSettings> selfManagedCertificates(Config config,
            String namespace) {
        if (!selfManagedCertificates(config)) {
            return Optional.empty();
        }
        String prefix = CERTIFICATES + ".";
        String service = dev.mooring.engine.kube.KubeNames.name(config.getOptionalValue(prefix + "service", String.class)
                .map(String::trim).filter(value -> !value.isEmpty())
                .orElseThrow(() -> new IllegalArgumentException(CERTIFICATES + "=self-managed needs " + prefix
                        + "service: the name of the webhook Service (the serving certificate is for its DNS names)")),
                prefix + "service");
        String secret = dev.mooring.engine.kube.KubeNames.name(optionalText(config, prefix + "secret").orElse(service + "-tls"),
                prefix + "secret");
        String configuration = dev.mooring.engine.kube.KubeNames.name(optionalText(config, prefix + "webhook-configuration")
                .orElse(service + "." + namespace + ".svc"), prefix + "webhook-configuration");
        String account = optionalText(config, prefix + "service-account")
                .map(name -> dev.mooring.engine.kube.KubeNames.name(name, prefix + "service-account")).orElse(null);
        Duration validity = Durations.positive(prefix + "validity", optionalText(config, prefix + "validity").orElse("P90D"));
        Duration caValidity = Durations.positive(prefix + "ca-validity", optionalText(config, prefix + "ca-validity").orElse("P3650D"));
        if (caValidity.compareTo(validity) < 0) {
            throw new IllegalArgumentException(prefix + "ca-validity (" + caValidity + ") must not be less than " + prefix
                    + "validity (" + validity + ")");
        }
        return Optional.of(dev.mooring.engine.certificates.CertificateSettings.builder(namespace, secret, service, configuration)
                .serviceAccount(account).servingValidity(validity).caValidity(caValidity).build());
    }

    /** The value of any property now, trimmed, empty when unset or blank (for the per-controller ones read while running). */
    public Optional<String> text(String key) {
        return optionalText(config, key);
    }

    private static Optional<String> optionalText(Config config, String key) {
        return config.getOptionalValue(key, String.class).map(String::trim).filter(value -> !value.isEmpty());
    }

    /**
     * The size of the pool admission methods run on.
     *
     * @param threads the most methods running at once
     * @param queue the most calls waiting for a thread; a call beyond both is answered 503 at once
     */
    public record AdmissionPool(int threads, int queue) {
    }

    /**
     * {@code mooring.admission.threads} (default 8) and {@code mooring.admission.queue} (default 32).
     *
     * @throws IllegalArgumentException naming the property unless each is a whole number of at least 1
     */
    public AdmissionPool admissionPool() {
        return admissionPool(config);
    }

    static AdmissionPool admissionPool(Config config) {
        return new AdmissionPool(positiveInt(config, "mooring.admission.threads", 8), positiveInt(config, "mooring.admission.queue", 32));
    }

    private static int positiveInt(Config config, String key, int defaultValue) {
        String value = config.getOptionalValue(key, String.class).map(String::trim).orElse(Integer.toString(defaultValue));
        try {
            int number = Integer.parseInt(value);
            if (number >= 1) {
                return number;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        throw new IllegalArgumentException(key + " must be a whole number of at least 1, not '" + value + "'");
    }

    private static final String METRICS_SECURE = "mooring.metrics.secure";

    /**
     * {@code mooring.metrics.secure}: whether metrics are served only to callers the API server
     * authenticates and authorizes (default false). When true, Liberty's own {@code /metrics}
     * requires Liberty's administrator role, which no one has (server.xml reads the same
     * variable), and {@code /mooring/metrics} on the HTTPS port is the way to them. Either way
     * {@code /mooring/metrics} checks its callers.
     *
     * @throws IllegalArgumentException naming the property when the value is not true or false, or
     *     when {@code mooring.webhook.tls.client-auth=true} (the HTTPS port would then take only the
     *     API server's client certificate, and no scraper could connect)
     */
    public boolean metricsSecure() {
        return metricsSecure(config);
    }

    /** See {@link #metricsSecure()}. */
    static boolean metricsSecure(Config config) {
        boolean secure = trueOrFalse(config, METRICS_SECURE);
        if (secure && config.getOptionalValue(CLIENT_AUTH, String.class).map(String::trim).filter("true"::equalsIgnoreCase)
                .isPresent()) {
            throw new IllegalArgumentException(METRICS_SECURE + "=true serves metrics on the HTTPS port, but " + CLIENT_AUTH
                    + "=true makes that port accept only the API server's client certificate, so no scraper could connect."
                    + " Leave one of them false");
        }
        return secure;
    }

    /** The boolean {@code key} (default false), in any case. */
    private static boolean trueOrFalse(Config config, String key) {
        return trueOrFalse(config, key, false);
    }

    /** The boolean {@code key}, in any case; {@code defaultValue} when it is not set. */
    private static boolean trueOrFalse(Config config, String key, boolean defaultValue) {
        String value = config.getOptionalValue(key, String.class).map(String::trim).orElse(Boolean.toString(defaultValue));
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(key + " must be true or false, not '" + value + "'");
        }
        return value.equalsIgnoreCase("true");
    }

    private static final String CLIENT_AUTH = "mooring.webhook.tls.client-auth";
    private static final String CLIENT_CA_FILE = "mooring.webhook.tls.client-ca-file";

    /**
     * {@code mooring.webhook.tls.client-auth}: whether the webhook port requires a client
     * certificate that chains to a CA of {@code mooring.webhook.tls.client-ca-file} (default
     * false). Liberty's ssl element reads the same variable (server.xml).
     */
    public boolean webhookClientAuth() {
        return webhookClientAuth(config);
    }

    /**
     * See {@link #webhookClientAuth()}.
     *
     * @throws IllegalArgumentException naming the property when the value is not true or false,
     *     when client certificates are required without a CA file, or a CA file is given while
     *     they are not required (the port would accept any client)
     */
    static boolean webhookClientAuth(Config config) {
        boolean required = trueOrFalse(config, CLIENT_AUTH);
        boolean hasCa = config.getOptionalValue(CLIENT_CA_FILE, String.class).filter(file -> !file.isBlank()).isPresent();
        if (required && !hasCa) {
            throw new IllegalArgumentException(CLIENT_AUTH + "=true needs " + CLIENT_CA_FILE
                    + ": the PEM file of the CA that signed the API server's webhook client certificate");
        }
        if (!required && hasCa) {
            throw new IllegalArgumentException(CLIENT_CA_FILE + " is set but " + CLIENT_AUTH + " is not true: the webhook"
                    + " port would not ask for client certificates. Set " + CLIENT_AUTH + "=true, or remove " + CLIENT_CA_FILE);
        }
        return required;
    }

    /**
     * {@code mooring.webhook.port}: the HTTPS port serving admission, checked for readiness.
     * Defaults to Liberty's {@code https.port}, else 9443.
     */
    public int webhookPort() {
        return webhookPort(config);
    }

    /**
     * See {@link #webhookPort()}.
     *
     * @throws IllegalArgumentException naming the property when it is not a port
     */
    static int webhookPort(Config config) {
        String key = config.getOptionalValue("mooring.webhook.port", String.class).isPresent() ? "mooring.webhook.port" : "https.port";
        String value = config.getOptionalValue(key, String.class).filter(text -> !text.isBlank()).orElse("9443");
        try {
            int port = Integer.parseInt(value.trim());
            if (port < 1 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a port between 1 and 65535, not '" + value + "'");
        }
    }

    /** The host to reach the HTTPS port on from this process: Liberty's {@code http.host} unless it is a wildcard. */
    public String webhookHost() {
        String host = text("http.host", "*").trim();
        return host.equals("*") || host.equals("0.0.0.0") || host.equals("::") || host.isEmpty() ? "127.0.0.1" : host;
    }

    private String text(String key, String fallback) {
        return config.getOptionalValue(key, String.class).filter(value -> !value.isBlank()).orElse(fallback);
    }

    /** {@code mooring.leader-election.enabled}: run controllers only on the elected replica. Default false. */
    public boolean leaderElectionEnabled() {
        return leaderElectionEnabled(config);
    }

    static boolean leaderElectionEnabled(Config config) {
        return trueOrFalse(config, "mooring.leader-election.enabled");
    }

    /**
     * {@code mooring.sharding.shards}: split the keys of every controller into this many shards,
     * each owned through its own Lease, so that all replicas reconcile at once, each its own
     * shards. The Leases are named, placed and timed by {@code mooring.leader-election.*}
     * ({@code <lease-name>-shard-<i>}, {@code <lease-name>-member-<hash>}). Default 0: no
     * sharding.
     *
     * @throws IllegalArgumentException naming the property unless a whole number from 0 to
     *     {@value dev.mooring.engine.replica.ShardSettings#MAX_SHARDS}, or when leader election is
     *     enabled as well
     */
    public int shards() {
        return shards(config);
    }

    static int shards(Config config) {
        String key = "mooring.sharding.shards";
        String value = config.getOptionalValue(key, String.class).map(String::trim).orElse("0");
        int shards = -1;
        try {
            shards = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            // named below
        }
        if (shards < 0 || shards > dev.mooring.engine.replica.ShardSettings.MAX_SHARDS) {
            throw new IllegalArgumentException(key + " must be a whole number from 0 to "
                    + dev.mooring.engine.replica.ShardSettings.MAX_SHARDS + ", not '" + value + "'");
        }
        if (shards > 0 && leaderElectionEnabled(config)) {
            throw new IllegalArgumentException(key + " and mooring.leader-election.enabled=true exclude each other: with shards"
                    + " every replica is active on its own shards; turn leader election off");
        }
        return shards;
    }

    /**
     * How this replica shares the work with the others: sharded with {@code mooring.sharding.shards}
     * above 0, leader-elected with {@code mooring.leader-election.enabled=true}, else one replica.
     *
     * @throws IllegalArgumentException naming the property of a wrong value, or both modes asked for
     */
    public ReplicaMode replicaMode() {
        int shards = shards(); // refuses shards with leader election
        if (shards > 0) {
            return new ReplicaMode.Sharded(new ShardSettings(leaderElection(), shards));
        }
        return leaderElectionEnabled() ? new ReplicaMode.LeaderElected(leaderElection(), warmStandby()) : new ReplicaMode.Single();
    }

    /**
     * {@code mooring.leader-election.warm-standby}: whether a standby starts its informers as the
     * leader does (lists, watches and keeps the cache and the queue of each controller, but runs no
     * pass and sends no write), so that it reconciles from a synced cache the moment it acquires the
     * Lease, without listing again. Default true; false keeps a standby idle until it leads.
     *
     * @throws IllegalArgumentException naming the property when the value is not true or false
     */
    public boolean warmStandby() {
        return warmStandby(config);
    }

    static boolean warmStandby(Config config) {
        return trueOrFalse(config, "mooring.leader-election.warm-standby", true);
    }

    /**
     * The election settings, from {@code mooring.leader-election.*}: {@code lease-name}
     * (default {@code mooring}), {@code namespace} (default the operator's namespace),
     * {@code identity} (default {@code <hostname>_<random UUID>}, unique per process),
     * {@code lease-duration} (15s), {@code renew-deadline} (10s), {@code retry-period} (2s).
     *
     * @throws IllegalArgumentException naming the property when a value is invalid
     */
    public ElectionSettings leaderElection() {
        return leaderElection(config, namespace());
    }

    static ElectionSettings leaderElection(Config config, String operatorNamespace) {
        String prefix = "mooring.leader-election.";
        String name = config.getOptionalValue(prefix + "lease-name", String.class).orElse("mooring").trim();
        String namespace = config.getOptionalValue(prefix + "namespace", String.class).filter(v -> !v.isBlank())
                .orElse(operatorNamespace).trim();
        String identity = config.getOptionalValue(prefix + "identity", String.class).filter(v -> !v.isBlank())
                .orElseGet(MooringConfig::defaultIdentity);
        return new ElectionSettings(name, namespace, identity,
                duration(config, prefix + "lease-duration", "15s"), duration(config, prefix + "renew-deadline", "10s"),
                duration(config, prefix + "retry-period", "2s"));
    }

    private static Duration duration(Config config, String key, String defaultValue) {
        return Durations.positive(key, config.getOptionalValue(key, String.class).orElse(defaultValue));
    }

    private static String defaultIdentity() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "unknown";
        }
        String identity = host + "_" + java.util.UUID.randomUUID();
        return identity.length() <= 128 ? identity : identity.substring(identity.length() - 128);
    }

    private Duration bounded(String key, long defaultSeconds, Duration max) {
        return config.getOptionalValue(key, String.class)
                .map(value -> Durations.positiveAtMost(key, value, max))
                .orElse(Duration.ofSeconds(defaultSeconds));
    }

    private Duration seconds(String key, long defaultSeconds) {
        return config.getOptionalValue(key, String.class)
                .map(value -> Durations.positive(key, value))
                .orElse(Duration.ofSeconds(defaultSeconds));
    }

    private Optional<String> serviceAccountNamespace() {
        try {
            return Files.isReadable(serviceAccountNamespace)
                    ? Optional.of(Files.readString(serviceAccountNamespace).trim()).filter(s -> !s.isEmpty())
                    : Optional.empty();
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }
}
