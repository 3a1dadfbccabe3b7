package dev.mooring.web.health;

import dev.mooring.runtime.OperatorManager;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Startup;

/**
 * {@code /health/started}: UP once every controller has completed its initial sync; on a standby
 * replica (leader election), once the election runs and the API server answered it.
 */
@Startup
@ApplicationScoped
public class ControllersStarted implements HealthCheck {

    @Inject
    OperatorManager manager;

    @Override
    public HealthCheckResponse call() {
        return ControllerHealth.response("mooring-started", manager.state().started(), manager.state());
    }
}
