package dev.mooring.bench.mooring;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;

/** Prints when the application's code first runs (the CDI application context starts): the framework's start. */
@ApplicationScoped
public class StartMarker {

    void started(@Observes @Initialized(ApplicationScoped.class) Object event) {
        System.out.println("BENCH framework start at " + System.currentTimeMillis());
    }
}
