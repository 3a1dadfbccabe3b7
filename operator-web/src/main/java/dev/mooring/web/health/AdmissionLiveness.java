package dev.mooring.web.health;

import dev.mooring.runtime.AdmissionService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * {@code /health/live}, admission part: DOWN when the webhooks can never serve as configured (the
 * webhook port has answered no TLS for a minute: {@code mooring.webhook.port} names a port no
 * Liberty endpoint serves), with the reason; UP otherwise, also without webhooks. A certificate
 * not served yet or a cache not synced is a readiness matter, not this.
 */
@Liveness
@ApplicationScoped
public class AdmissionLiveness implements HealthCheck {

    @Inject
    AdmissionService admission;

    @Override
    public HealthCheckResponse call() {
        Optional<String> misconfigured = admission.misconfigured();
        return misconfigured.map(why -> HealthCheckResponse.named("mooring-admission").down().withData("tls", why).build())
                .orElseGet(() -> HealthCheckResponse.named("mooring-admission").up().build());
    }
}
