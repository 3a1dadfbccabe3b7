package dev.mooring.api.client;

import io.kubernetes.client.common.KubernetesObject;
import java.util.function.Predicate;

/**
 * What a {@link ResourceClient#waitFor wait} waits for, tested on each change of the object.
 *
 * @param <R> the model class
 */
@FunctionalInterface
public interface WaitCondition<R extends KubernetesObject> {

    /**
     * Whether the wait is over.
     *
     * @param type {@code ADDED}, {@code MODIFIED} or {@code DELETED} (bookmarks are not tested)
     * @param object the object after the change (as it was last, when deleted)
     */
    boolean holds(WatchEvent.Type type, R object);

    /** Holds once the object is deleted. */
    static <R extends KubernetesObject> WaitCondition<R> deleted() {
        return (type, object) -> type == WatchEvent.Type.DELETED;
    }

    /** Holds when the object, present, satisfies {@code predicate}. */
    static <R extends KubernetesObject> WaitCondition<R> matches(Predicate<? super R> predicate) {
        return (type, object) -> type != WatchEvent.Type.DELETED && predicate.test(object);
    }
}
