package dev.mooring.web.health;

import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.runtime.OperatorState;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/** Builds health responses whose data name each controller's state and any failure. */
final class ControllerHealth {

    private ControllerHealth() {
    }

    static HealthCheckResponse response(String name, boolean up, OperatorState state) {
        HealthCheckResponseBuilder builder = HealthCheckResponse.named(name).status(up);
        for (ControllerStatus status : state.controllers()) {
            builder.withData(status.name(), status.state().name().toLowerCase(java.util.Locale.ROOT)
                    + (status.failure() == null ? "" : ": " + status.failure()));
        }
        if (state.leadership() != null) {
            builder.withData("leadership", state.leadership());
            builder.withData("leader", state.leader());
        }
        if (state.sharding() != null) {
            builder.withData("sharding", state.sharding());
        }
        state.connections().forEach(builder::withData);
        int index = 0;
        for (String failure : state.failures()) {
            builder.withData("failure-" + index++, failure);
        }
        return builder.build();
    }
}
