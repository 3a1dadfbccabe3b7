package dev.mooring.api.client;

import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;

/**
 * How an object is deleted: what happens to its dependents, how long its pods may take, which
 * object it must still be, and whether the deletion is only tried.
 *
 * @param propagation what the garbage collector does with the dependents; null for the kind's default
 * @param gracePeriod how long the object may take to terminate (whole seconds, zero for at once);
 *     null for the kind's default
 * @param uid delete only the object with this UID (a precondition), or null
 * @param resourceVersion delete only the object at this resourceVersion (a precondition), or null
 * @param dryRun let the server check the deletion without deleting ({@code dryRun=All})
 */
public record DeleteOptions(Propagation propagation, Duration gracePeriod, String uid, String resourceVersion, boolean dryRun) {

    /** What the garbage collector does with the dependents of a deleted object. */
    public enum Propagation {
        /** Dependents are kept, their owner references to the object removed. */
        ORPHAN("Orphan"),
        /** The object is deleted at once; the garbage collector deletes the dependents afterwards. */
        BACKGROUND("Background"),
        /** The object is deleted after the dependents that block its deletion are gone. */
        FOREGROUND("Foreground");

        private final String wire;

        Propagation(String wire) {
            this.wire = wire;
        }

        /** The value of {@code propagationPolicy} on the wire. */
        public String wire() {
            return wire;
        }
    }

    /** The kind's defaults, no precondition, persisted. */
    public static final DeleteOptions DEFAULT = new DeleteOptions(null, null, null, null, false);

    /**
     * @throws IllegalArgumentException if the grace period is negative or not whole seconds, or a
     *     precondition is blank
     */
    public DeleteOptions {
        if (gracePeriod != null && (gracePeriod.isNegative() || gracePeriod.toMillis() % 1000 != 0)) {
            throw new IllegalArgumentException("A grace period is zero or more whole seconds, got " + gracePeriod);
        }
        if (uid != null && uid.isBlank() || resourceVersion != null && resourceVersion.isBlank()) {
            throw new IllegalArgumentException("A delete precondition must not be blank");
        }
    }

    /** Preconditions on the UID and resourceVersion of {@code object}: only that object, unchanged, is deleted. */
    public static DeleteOptions guardedBy(KubernetesObject object) {
        return DEFAULT.withUid(object.getMetadata().getUid()).withResourceVersion(object.getMetadata().getResourceVersion());
    }

    public DeleteOptions withPropagation(Propagation value) {
        return new DeleteOptions(value, gracePeriod, uid, resourceVersion, dryRun);
    }

    public DeleteOptions withGracePeriod(Duration value) {
        return new DeleteOptions(propagation, value, uid, resourceVersion, dryRun);
    }

    /** Only the object with this UID is deleted (a replaced object of the same name is not). */
    public DeleteOptions withUid(String value) {
        return new DeleteOptions(propagation, gracePeriod, value, resourceVersion, dryRun);
    }

    /** Only the object at this resourceVersion is deleted (a changed one is not). */
    public DeleteOptions withResourceVersion(String value) {
        return new DeleteOptions(propagation, gracePeriod, uid, value, dryRun);
    }

    public DeleteOptions asDryRun() {
        return new DeleteOptions(propagation, gracePeriod, uid, resourceVersion, true);
    }
}
