package dev.mooring.it.lifecycle;

import dev.mooring.api.LifecycleEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.logging.Logger;

/** Logs every LifecycleEvent, for LeaderElectionContainerIT to read in the server log. */
@ApplicationScoped
public class LifecycleProbe {

    private static final Logger LOG = Logger.getLogger(LifecycleProbe.class.getName());

    void observe(@Observes LifecycleEvent event) {
        LOG.info("LIFECYCLE " + event.scope() + " " + event.type() + (event.identity() == null ? "" : " " + event.identity()));
    }
}
