package dev.mooring.runtime;

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
 * <p>Every key is documented in the README. A value that does not parse fails with a message
 * naming the key.
 */
@ApplicationScoped
public class MooringConfig {

    static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    @Inject
    Config config;

    /**
     * {@code mooring.namespace}: the operator's namespace, the default scope of controllers.
     * Defaults to the in-cluster service account's namespace, else {@code default}.
     */
    public String namespace() {
        return config.getOptionalValue("mooring.namespace", String.class)
                .filter(value -> !value.isBlank())
                .or(MooringConfig::serviceAccountNamespace)
                .orElse("default");
    }

    /** {@code mooring.kubeconfig}: path of a kubeconfig file (see {@link KubernetesConnection} for the order). */
    public Optional<Path> kubeconfig() {
        return config.getOptionalValue("mooring.kubeconfig", String.class).filter(v -> !v.isBlank()).map(Path::of);
    }

    /**
     * {@code mooring.watch.idle-timeout}: a watch that delivers neither an event nor a bookmark
     * for this long is considered dead and is re-established. Default 120 seconds.
     */
    public Duration watchIdleTimeout() {
        return seconds("mooring.watch.idle-timeout", 120);
    }

    /** {@code mooring.request.timeout}: read timeout of ordinary API requests. Default 30 seconds. */
    public Duration requestTimeout() {
        return seconds("mooring.request.timeout", 30);
    }

    private Duration seconds(String key, long defaultSeconds) {
        Optional<String> raw = config.getOptionalValue(key, String.class);
        if (raw.isEmpty()) {
            return Duration.ofSeconds(defaultSeconds);
        }
        try {
            double value = Double.parseDouble(raw.get().trim());
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new NumberFormatException();
            }
            return Duration.ofNanos((long) (value * 1e9));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a positive number of seconds, got '" + raw.get() + "'");
        }
    }

    private static Optional<String> serviceAccountNamespace() {
        try {
            return Files.isReadable(SERVICE_ACCOUNT_NAMESPACE)
                    ? Optional.of(Files.readString(SERVICE_ACCOUNT_NAMESPACE).trim()).filter(s -> !s.isEmpty())
                    : Optional.empty();
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }
}
