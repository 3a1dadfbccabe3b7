package dev.mooring.runtime;

import dev.mooring.api.Controllers;
import dev.mooring.api.ObjectKey;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The injectable {@link Controllers} of this deployment. */
@ApplicationScoped
public class ControllersBean implements Controllers {

    @Inject
    OperatorManager manager;

    @Override
    public void enqueue(String controllerName, ObjectKey key) {
        manager.state().enqueue(controllerName, key);
    }
}
