package dev.mooring.it.probe;

import jakarta.enterprise.context.RequestScoped;
import java.util.UUID;

/** One instance per reconcile pass, if the request scope is active during passes. */
@RequestScoped
public class PassScope {

    private final String id = UUID.randomUUID().toString();

    public String id() {
        return id;
    }
}
