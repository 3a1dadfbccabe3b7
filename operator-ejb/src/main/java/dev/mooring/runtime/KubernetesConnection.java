package dev.mooring.runtime;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.RequestTiming;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.auth.ApiKeyAuth;
import io.kubernetes.client.openapi.auth.HttpBasicAuth;
import io.kubernetes.client.openapi.auth.HttpBearerAuth;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.Config;
import io.kubernetes.client.util.KubeConfig;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The operator's connection to the Kubernetes API server.
 *
 * <p>The first of these that is present wins:
 * <ol>
 *   <li>the {@code KUBECONFIG} environment variable (the first file it lists);</li>
 *   <li>the in-cluster service account ({@code KUBERNETES_SERVICE_HOST} set and
 *       {@code /var/run/secrets/kubernetes.io/serviceaccount/token} readable);</li>
 *   <li>the MicroProfile Config property {@code mooring.kubeconfig};</li>
 *   <li>{@code ~/.kube/config}.</li>
 * </ol>
 * It is read once; two HTTP clients share it and one connection pool: one for ordinary requests
 * (read timeout {@code mooring.request.timeout}) and one for watches, whose read timeout is the
 * watch idle timeout. Every HTTP/2 connection is pinged every {@code mooring.connection.ping-interval}
 * and closed when a ping goes unanswered, so that a hung API server, whose connections stay open
 * but silent, fails the watches and requests on them within seconds. Every request is counted
 * and timed for the {@code rest_client_*} metrics, and traced when sent during a traced pass or
 * admission call ({@link Telemetry}).
 */
@ApplicationScoped
public class KubernetesConnection {

    private static final Logger LOG = Logger.getLogger(KubernetesConnection.class.getName());
    private static final Path SERVICE_ACCOUNT_TOKEN = Path.of(Config.SERVICEACCOUNT_TOKEN_PATH);

    @Inject
    MooringConfig config;

    @Inject
    RuntimeMetrics metrics;

    @Inject
    Telemetry telemetry;

    private String source;
    private KubeHttp requests;
    private KubeHttp watches;

    @PostConstruct
    void connect() {
        Function<Integer, ApiClient> factory = clientFactory(System.getenv());
        ApiClient client = withPings(factory.apply((int) config.requestTimeout().toMillis()), config.pingInterval());
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(new RequestTiming(metrics::answered, telemetry.tracing())).build());
        requests = new KubeHttp(client.setUserAgent(KubeHttp.USER_AGENT));
        watches = new KubeHttp(withReadTimeout(client, (int) config.watchIdleTimeout().toMillis()).setUserAgent(KubeHttp.USER_AGENT));
        LOG.info(() -> "Mooring connects to " + requests.apiClient().getBasePath() + " (" + source + ")");
    }

    /** The client for ordinary requests. */
    public KubeHttp requests() {
        return requests;
    }

    /** The client for watches. */
    public KubeHttp watches() {
        return watches;
    }

    /** Where the connection settings came from, for logs and diagnostics. */
    public String source() {
        return source;
    }

    private Function<Integer, ApiClient> clientFactory(Map<String, String> env) {
        String kubeconfigEnv = env.get(Config.ENV_KUBECONFIG);
        if (kubeconfigEnv != null && !kubeconfigEnv.isBlank()) {
            Path path = Path.of(kubeconfigEnv.split(java.io.File.pathSeparator)[0]);
            source = "KUBECONFIG=" + path;
            return timeout -> fromKubeconfig(path, timeout);
        }
        if (env.get(Config.ENV_SERVICE_HOST) != null && Files.isReadable(SERVICE_ACCOUNT_TOKEN)) {
            source = "in-cluster service account";
            return timeout -> withTimeout(inCluster(), timeout);
        }
        if (config.kubeconfig().isPresent()) {
            Path path = config.kubeconfig().get();
            source = "mooring.kubeconfig=" + path;
            return timeout -> fromKubeconfig(path, timeout);
        }
        Path home = Path.of(System.getProperty("user.home"), ".kube", "config");
        if (Files.isReadable(home)) {
            source = home.toString();
            return timeout -> fromKubeconfig(home, timeout);
        }
        throw new IllegalStateException("No Kubernetes connection configured: set the KUBECONFIG environment variable,"
                + " run in a cluster with a service account, set the MicroProfile Config property mooring.kubeconfig,"
                + " or provide ~/.kube/config");
    }

    /** A client for the kubeconfig file; a client certificate alone is read by the JDK ({@link ClientCertificate}). */
    static ApiClient fromKubeconfig(Path path, int readTimeoutMillis) {
        if (!Files.isReadable(path)) {
            throw new IllegalStateException("The kubeconfig file " + path + " does not exist or is not readable");
        }
        try (java.io.Reader reader = Files.newBufferedReader(path)) {
            KubeConfig kubeconfig = KubeConfig.loadKubeConfig(reader);
            kubeconfig.setFile(path.toFile());
            if (kubeconfig.getCurrentContext() == null || kubeconfig.getCurrentContext().isBlank()) {
                throw new IllegalStateException("The kubeconfig file " + path + " has no current-context: set one"
                        + " (kubectl config use-context NAME --kubeconfig " + path + ")");
            }
            ClientBuilder builder = ClientBuilder.kubeconfig(kubeconfig);
            ClientCertificate.of(kubeconfig).ifPresent(builder::setAuthentication);
            return withTimeout(builder.build(), readTimeoutMillis);
        } catch (IllegalStateException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("The kubeconfig file " + path + " could not be loaded: " + e.getMessage(), e);
        }
    }

    private static ApiClient inCluster() {
        try {
            return Config.fromCluster();
        } catch (IOException e) {
            throw new UncheckedIOException("The in-cluster service account configuration could not be loaded", e);
        }
    }

    /**
     * A second client on the first one's configuration, with another read timeout: one kubeconfig
     * read, one TLS set-up, one connection pool. The HTTP client carries the TLS material and the
     * token interceptors; the credentials the API client holds (bearer token, basic) are shared.
     */
    static ApiClient withReadTimeout(ApiClient client, int readTimeoutMillis) {
        ApiClient copy = new ApiClient(client.getHttpClient().newBuilder()
                .readTimeout(readTimeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS).build());
        copy.setBasePath(client.getBasePath());
        client.getAuthentications().forEach((name, authentication) -> {
            Object target = copy.getAuthentication(name);
            if (authentication instanceof ApiKeyAuth key && target instanceof ApiKeyAuth copied) {
                copied.setApiKey(key.getApiKey());
                copied.setApiKeyPrefix(key.getApiKeyPrefix());
            } else if (authentication instanceof HttpBasicAuth basic && target instanceof HttpBasicAuth copied) {
                copied.setUsername(basic.getUsername());
                copied.setPassword(basic.getPassword());
            } else if (authentication instanceof HttpBearerAuth bearer && target instanceof HttpBearerAuth copied) {
                copied.setBearerToken(bearer.getBearerToken());
            }
        });
        return copy;
    }

    /** The client with HTTP/2 pings every {@code interval} on its connections (inherited by {@link #withReadTimeout}). */
    static ApiClient withPings(ApiClient client, java.time.Duration interval) {
        return client.setHttpClient(client.getHttpClient().newBuilder().pingInterval(interval).build());
    }

    private static ApiClient withTimeout(ApiClient client, int readTimeoutMillis) {
        return client.setReadTimeout(readTimeoutMillis);
    }
}
