package dev.mooring.runtime;

import dev.mooring.engine.access.DelegatedAccess;
import dev.mooring.engine.access.ReviewBudget;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.annotation.RegistryScope;

/**
 * The metrics of {@code /mooring/metrics}: every registry's series in the Prometheus text format
 * (as Liberty's {@code /metrics} writes them), for callers the API server authenticates and
 * authorizes to {@code get} the path ({@link DelegatedAccess}, with the operator's connection;
 * allowances are reused for a minute, refusals for 10 seconds; callers with new tokens are reviewed
 * at most 5 a second, 2 at once, and answered 429 beyond that).
 */
@ApplicationScoped
public class SecureMetrics {

    /** The path callers are authorized for: the {@code nonResourceURLs} of the metrics reader role. */
    public static final String PATH = "/mooring/metrics";

    @Inject
    KubernetesConnection connection;

    @Inject
    MooringConfig config;

    @Inject
    @RegistryScope(scope = MetricRegistry.BASE_SCOPE)
    MetricRegistry base;

    @Inject
    @RegistryScope(scope = MetricRegistry.VENDOR_SCOPE)
    MetricRegistry vendor;

    @Inject
    MetricRegistry application;

    private DelegatedAccess access;

    @PostConstruct
    void start() {
        access = new DelegatedAccess(connection.requests(), Clock.systemUTC(), Duration.ofMinutes(1), Duration.ofSeconds(10), 1024,
                config.requestTimeout(), ReviewBudget.Limits.DEFAULT);
    }

    /** Whether the caller with this {@code Authorization} header may read the metrics, and why. */
    public DelegatedAccess.Decision check(String authorization) {
        return access.check(authorization, PATH, "get");
    }

    /** The content type of {@link #text()}. */
    public String contentType() {
        return PrometheusText.CONTENT_TYPE;
    }

    /** Every series now, in the Prometheus text format. */
    public String text() {
        return PrometheusText.of(List.of(scope(base), scope(vendor), scope(application)));
    }

    private static PrometheusText.Scope scope(MetricRegistry registry) {
        return new PrometheusText.Scope(registry.getScope(), registry.getMetrics(), registry::getMetadata);
    }
}
