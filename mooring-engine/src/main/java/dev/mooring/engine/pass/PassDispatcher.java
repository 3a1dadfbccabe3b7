package dev.mooring.engine.pass;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.model.ControllerDefinition;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one pass of a controller over one cached object and says how it ended (JOSDK's
 * {@code ReconciliationDispatcher}): the pass chosen when the controller was built, in a request
 * scope, on a copy of the cached object; then, after a successful pass of a custom resource whose
 * status declares {@code observedGeneration}, that field is staged as the object's generation; then
 * the status staged in the pass is written, also after a failure; then the pass's Events are sent. Queue actions, counts and logs are the
 * runner's.
 */
public final class PassDispatcher<T extends KubernetesObject> {

    private static final Logger LOG = Logger.getLogger(PassDispatcher.class.getName());

    /** Bound of sending the Events of one pass. */
    static final Duration EVENT_FLUSH_TIMEOUT = Duration.ofSeconds(2);

    private final PassEnvironment environment;
    private final ControllerView view;
    private final Pass<T> pass;
    private final String kind;
    /** Whether the primary's status has an {@code observedGeneration} the runtime keeps; known at the first pass. */
    private volatile Boolean observesGeneration;

    /** @param pass the controller's kind of pass, chosen once ({@link Pass#of}) */
    public PassDispatcher(ControllerDefinition definition, Pass<T> pass, PassEnvironment environment, ControllerView view) {
        this.environment = environment;
        this.view = view;
        this.pass = pass;
        this.kind = definition.kind().getSimpleName();
    }

    /**
     * One pass over {@code cached} (read, never changed), timed by {@code timer}, which the pass
     * stops as soon as the reconciler returns or throws.
     */
    public Outcome dispatch(ObjectKey key, T cached, PassTimer timer) {
        return dispatch(key, cached, timer, dev.mooring.api.Attempt.FIRST);
    }

    /** {@link #dispatch(ObjectKey, KubernetesObject, PassTimer)} as attempt {@code attempt} at the object's state. */
    public Outcome dispatch(ObjectKey key, T cached, PassTimer timer, dev.mooring.api.Attempt attempt) {
        ReconcileContext<T> context = new ReconcileContext<>(view, key, cached, environment.clients().apply(key.namespace()), attempt);
        Outcome outcome;
        try (RequestScope.Activation scope = environment.requestScope().activate()) {
            outcome = Outcome.returned(pass.run(Models.copy(cached), context));
        } catch (Exception | AssertionError e) {
            outcome = Outcome.thrown(e, timer.expired());
            if (e instanceof Exception failure && (outcome.kind() == Outcome.Kind.ERROR || outcome.kind() == Outcome.Kind.TERMINAL)) {
                shapeFailure(cached, context, failure, key);
            }
        } finally {
            timer.stop();
        }
        if (outcome.kind() == Outcome.Kind.SUCCESS && cached.getMetadata().getDeletionTimestamp() == null && observesGeneration(cached)) {
            context.observeGeneration();
        }
        outcome = persistStatus(context, outcome, key);
        context.flushEvents(environment.events(), EVENT_FLUSH_TIMEOUT);
        return outcome;
    }

    /** The bean's {@code failed}, on a copy of the object the pass began with; what it throws is logged only. */
    private void shapeFailure(T cached, ReconcileContext<T> context, Exception failure, ObjectKey key) {
        try {
            pass.failed(Models.copy(cached), context, failure);
        } catch (Exception | AssertionError e) {
            LOG.log(Level.WARNING, "The failure hook (failed) of " + describe(key) + " threw; the pass's outcome stays that of its"
                    + " failure: " + e, e);
        }
    }

    /**
     * Writes the status staged in the pass, also after a failure. A failed status write makes
     * the pass an error (retried), even when the pass itself succeeded or failed terminally.
     */
    private Outcome persistStatus(ReconcileContext<T> context, Outcome outcome, ObjectKey key) {
        try {
            context.persistStatus();
            return outcome;
        } catch (RuntimeException e) {
            String message = "Could not persist the status of " + describe(key) + ": " + e.getMessage();
            if (outcome.kind() == Outcome.Kind.ERROR || outcome.kind() == Outcome.Kind.CANCELLED) {
                LOG.log(Level.WARNING, message);
                return outcome;
            }
            return Outcome.thrown(new IllegalStateException(message, e), false);
        }
    }

    private boolean observesGeneration(T cached) {
        Boolean observes = observesGeneration;
        if (observes == null) {
            observes = ObservedGeneration.declaredBy(cached.getClass());
            observesGeneration = observes;
        }
        return observes;
    }

    /**
     * Tell about a key given up after its retries: a Warning Event {@code ReconcileGaveUp} on the
     * object (within the Events' budget, like a pass's). Never throws.
     */
    public void gaveUp(T cached, String note) {
        if (environment.events() == null) {
            return;
        }
        try {
            environment.events().emit(cached, dev.mooring.api.EventType.WARNING, "ReconcileGaveUp", "Reconcile", note, EVENT_FLUSH_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "The Event of a given-up " + kind + " could not be written", e);
        }
    }

    /** The object and controller of a pass, for messages. */
    public String describe(ObjectKey key) {
        return kind + " " + key + " (controller " + view.controller() + ")";
    }
}
