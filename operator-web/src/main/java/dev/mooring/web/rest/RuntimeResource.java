package dev.mooring.web.rest;

import dev.mooring.runtime.OperatorManager;
import dev.mooring.runtime.OperatorState;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code GET /mooring/api/runtime}: the runtime as a whole: health, readiness, the number of
 * distinct informers (watch subscriptions, shared between controllers), relists after expired
 * watch history, and fatal failures.
 */
@Path("mooring/api/runtime")
@RequestScoped
public class RuntimeResource {

    /** The answer's shape. */
    public record RuntimeStatus(boolean healthy, boolean ready, int informers, long relists, List<String> failures) {
    }

    @Inject
    OperatorManager manager;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public RuntimeStatus runtime() {
        OperatorState state = manager.state();
        return new RuntimeStatus(state.healthy(), state.ready(), state.informerCount(), state.relists(), state.failures());
    }
}
