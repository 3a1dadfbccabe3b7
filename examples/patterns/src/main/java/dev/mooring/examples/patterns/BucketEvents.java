package dev.mooring.examples.patterns;

import dev.mooring.api.Controllers;
import dev.mooring.api.ObjectKey;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Events from outside Kubernetes, the Jakarta EE way: the external store reports a change of a
 * bucket (here as a CDI event, {@link BucketChanged}, that its client fires; a JMS message-driven
 * bean or an EJB {@code @Schedule} that asks the store works the same), and this observer asks the
 * archives' controller for a pass with {@link Controllers#enqueue}. The pass reads the store and
 * repairs what changed: the event carries no state, only which object to look at.
 */
@ApplicationScoped
public class BucketEvents {

    private final Controllers controllers;

    @Inject
    public BucketEvents(Controllers controllers) {
        this.controllers = controllers;
    }

    /** A bucket changed or vanished outside Kubernetes: reconcile the archive that owns it. */
    public void changed(@Observes BucketChanged change) {
        controllers.enqueue("archives", new ObjectKey(change.namespace(), change.archive()));
    }

    /**
     * What the store's client reports: the archive whose bucket changed.
     *
     * @param namespace the archive's namespace
     * @param archive the archive's name
     */
    public record BucketChanged(String namespace, String archive) {
    }
}
