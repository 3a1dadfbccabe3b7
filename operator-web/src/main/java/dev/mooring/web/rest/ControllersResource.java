package dev.mooring.web.rest;

import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.runtime.OperatorManager;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code GET /mooring/api/controllers}: a read-only snapshot of every controller (state, queue
 * depth, processing and delayed keys, pass counts). No object names appear in it.
 */
@Path("mooring/api/controllers")
@RequestScoped
public class ControllersResource {

    @Inject
    OperatorManager manager;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public List<ControllerStatus> controllers() {
        return manager.state().controllers();
    }
}
