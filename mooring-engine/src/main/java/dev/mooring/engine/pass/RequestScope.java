package dev.mooring.engine.pass;

/** Activates a CDI request context around one reconcile pass. */
@FunctionalInterface
public interface RequestScope {

    /** A scope that does nothing, for engines running outside CDI. */
    RequestScope NONE = () -> () -> { };

    /** Activate; closing the result deactivates. */
    Activation activate();

    /** An active request context. */
    interface Activation extends AutoCloseable {
        @Override
        void close();
    }
}
