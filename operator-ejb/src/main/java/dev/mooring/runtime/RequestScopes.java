package dev.mooring.runtime;

import dev.mooring.engine.pass.RequestScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * Activates a CDI request context on a managed thread, around one reconcile pass or one
 * admission call, so that {@code @RequestScoped} beans work there as in a web request.
 */
@ApplicationScoped
public class RequestScopes implements RequestScope {

    @Inject
    Instance<RequestContextController> requestContexts;

    @Override
    public Activation activate() {
        RequestContextController controller = requestContexts.get();
        boolean activated = controller.activate();
        return () -> {
            if (activated) {
                controller.deactivate();
            }
            requestContexts.destroy(controller);
        };
    }
}
