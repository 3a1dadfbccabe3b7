package dev.mooring.web.health;

import dev.mooring.runtime.OperatorManager;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/** {@code /health/live}: UP while the runtime runs without a fatal failure, including during startup. */
@Liveness
@ApplicationScoped
public class ControllersLiveness implements HealthCheck {

    @Inject
    OperatorManager manager;

    @Override
    public HealthCheckResponse call() {
        return ControllerHealth.response("mooring-runtime", manager.state().healthy(), manager.state());
    }
}
