package dev.mooring.bench.mooring;

import dev.mooring.api.LifecycleEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;

/**
 * Prints the framework's start (the CDI application context starts: the application's code first
 * runs) and the engine's start (Mooring's process start-up event, fired just before the
 * controllers start).
 */
@ApplicationScoped
public class StartMarker {

    void started(@Observes @Initialized(ApplicationScoped.class) Object event) {
        System.out.println("BENCH framework start at " + System.currentTimeMillis());
    }

    void engine(@Observes LifecycleEvent event) {
        if (event.type() == LifecycleEvent.Type.STARTUP) {
            System.out.println("BENCH engine start at " + System.currentTimeMillis());
        }
    }
}
