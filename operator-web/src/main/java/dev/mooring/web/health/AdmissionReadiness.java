package dev.mooring.web.health;

import dev.mooring.runtime.AdmissionService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /health/ready}, admission part: with admission webhooks, UP once the HTTPS port serves
 * the webhook certificate and the admission caches have synced, on every replica; always UP
 * without webhooks.
 */
@Readiness
@ApplicationScoped
public class AdmissionReadiness implements HealthCheck {

    @Inject
    AdmissionService admission;

    @Override
    public HealthCheckResponse call() {
        AdmissionService.Status status = admission.status();
        HealthCheckResponseBuilder builder = HealthCheckResponse.named("mooring-admission").status(status.serving());
        for (Map.Entry<String, String> detail : status.details().entrySet()) {
            builder.withData(detail.getKey(), detail.getValue());
        }
        return builder.build();
    }
}
