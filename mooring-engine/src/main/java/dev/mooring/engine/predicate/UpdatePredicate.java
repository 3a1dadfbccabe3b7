package dev.mooring.engine.predicate;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Whether an update of a watched object should start a pass (controller-runtime's
 * {@code predicate.Funcs.UpdateFunc}); additions and deletions always do.
 */
@FunctionalInterface
public interface UpdatePredicate {

    /** Every update passes. */
    UpdatePredicate ALL = (oldObject, newObject) -> true;

    /** True when the change from {@code oldObject} to {@code newObject} should start a pass. */
    boolean test(KubernetesObject oldObject, KubernetesObject newObject);
}
