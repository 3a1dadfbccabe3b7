package dev.mooring.engine.pass;

import dev.mooring.engine.client.EngineClient;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a controller's passes reach outside the engine: the cluster (a live client per default
 * namespace), the request scope activated around each pass, where the pass's Events go, and the
 * clock of the times a pass writes (a condition's {@code lastTransitionTime}).
 *
 * @param events where the Events of a pass go; null to drop them
 */
public record PassEnvironment(Function<String, EngineClient> clients, RequestScope requestScope, EventRecorder events,
        Clock clock) {

    public PassEnvironment {
        Objects.requireNonNull(clients, "clients");
        Objects.requireNonNull(requestScope, "requestScope");
        Objects.requireNonNull(clock, "clock");
    }

    /** No request scope, no Events, the system clock in UTC. */
    public static PassEnvironment of(Function<String, EngineClient> clients) {
        return new PassEnvironment(clients, RequestScope.NONE, null, Clock.systemUTC());
    }

}
