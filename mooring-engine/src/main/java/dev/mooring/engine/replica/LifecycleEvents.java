package dev.mooring.engine.replica;

import dev.mooring.api.LifecycleEvent;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where {@link LifecycleEvent}s go (in a container, CDI observers): an observer's exception is
 * logged and goes no further, and the process-scope {@link LifecycleEvent.Type#FAILURE} is sent
 * once, whatever failed first.
 */
public final class LifecycleEvents {

    private static final Logger LOG = Logger.getLogger(LifecycleEvents.class.getName());

    private final Consumer<LifecycleEvent> observers;
    private final AtomicBoolean processFailed = new AtomicBoolean();

    public LifecycleEvents(Consumer<LifecycleEvent> observers) {
        this.observers = Objects.requireNonNull(observers, "observers");
    }

    /** Sends {@code type} in {@code scope}; {@code identity} names this replica in leader scope (else null). */
    public void fire(LifecycleEvent.Type type, LifecycleEvent.Scope scope, String identity, Throwable error) {
        try {
            observers.accept(new LifecycleEvent(type, scope, identity, error));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "A LifecycleEvent observer failed on " + type + " (" + scope + ")", e);
        }
    }

    /** The process-scope FAILURE, the first time only. */
    public void processFailed(Throwable error) {
        if (processFailed.compareAndSet(false, true)) {
            fire(LifecycleEvent.Type.FAILURE, LifecycleEvent.Scope.PROCESS, null, error);
        }
    }
}
