package dev.mooring.web.health;

import dev.mooring.runtime.OperatorManager;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** {@code /health/ready}: UP once every controller's initial list is cached and its workers run. */
@Readiness
@ApplicationScoped
public class ControllersReadiness implements HealthCheck {

    @Inject
    OperatorManager manager;

    @Override
    public HealthCheckResponse call() {
        return ControllerHealth.response("mooring-controllers", manager.ready(), manager);
    }
}
