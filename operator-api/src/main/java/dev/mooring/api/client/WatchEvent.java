package dev.mooring.api.client;

import io.kubernetes.client.common.KubernetesObject;

/**
 * One event of a watch.
 *
 * @param type what happened
 * @param object the object as it is after the event (as it was last, for {@code DELETED}); null
 *     for a {@code BOOKMARK}
 * @param resourceVersion the resourceVersion the watch has reached with this event
 * @param <R> the model class
 */
public record WatchEvent<R extends KubernetesObject>(Type type, R object, String resourceVersion) {

    /** What happened to the object. */
    public enum Type {
        ADDED, MODIFIED, DELETED,
        /** No object changed: the server says the watch has reached {@link #resourceVersion()}. */
        BOOKMARK
    }
}
