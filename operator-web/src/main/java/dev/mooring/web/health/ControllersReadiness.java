package dev.mooring.web.health;

import dev.mooring.runtime.OperatorManager;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /health/ready}, controller part: on the leader (or without leader election) UP once
 * every controller's initial list is cached and its workers run; on a standby UP while it is in
 * contact with the API server, so that it can take over. The data say {@code leader: true|false}.
 */
@Readiness
@ApplicationScoped
public class ControllersReadiness implements HealthCheck {

    @Inject
    OperatorManager manager;

    @Override
    public HealthCheckResponse call() {
        return ControllerHealth.response("mooring-controllers", manager.state().readyToServe(), manager.state());
    }
}
