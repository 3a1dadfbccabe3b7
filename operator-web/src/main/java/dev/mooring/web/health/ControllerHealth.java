package dev.mooring.web.health;

import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.runtime.OperatorManager;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/** Builds health responses whose data name each controller's state and any failure. */
final class ControllerHealth {

    private ControllerHealth() {
    }

    static HealthCheckResponse response(String name, boolean up, OperatorManager manager) {
        HealthCheckResponseBuilder builder = HealthCheckResponse.named(name).status(up);
        for (ControllerStatus status : manager.controllers()) {
            builder.withData(status.name(), status.state().name().toLowerCase(java.util.Locale.ROOT)
                    + (status.failure() == null ? "" : ": " + status.failure()));
        }
        if (manager.leadership() != null) {
            builder.withData("leadership", manager.leadership());
            builder.withData("leader", manager.leader());
        }
        if (manager.sharding() != null) {
            builder.withData("sharding", manager.sharding());
        }
        manager.connections().forEach(builder::withData);
        int index = 0;
        for (String failure : manager.failures()) {
            builder.withData("failure-" + index++, failure);
        }
        return builder.build();
    }
}
