package dev.mooring.web.health;

import dev.mooring.runtime.OperatorManager;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /health/ready}, controller part: UP once every controller's initial list is cached and
 * its workers run. A standby replica (leader election) is UP when the application has admission
 * webhooks, because it serves them; without webhooks only the leader is ready.
 */
@Readiness
@ApplicationScoped
public class ControllersReadiness implements HealthCheck {

    @Inject
    OperatorManager manager;

    @Inject
    dev.mooring.runtime.AdmissionService admission;

    @Override
    public HealthCheckResponse call() {
        boolean up = manager.ready() || admission.registered() && manager.standby();
        return ControllerHealth.response("mooring-controllers", up, manager);
    }
}
