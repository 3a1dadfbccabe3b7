package dev.mooring.api.client;

import io.kubernetes.client.common.KubernetesObject;

/**
 * A watch of the objects a {@link WatchOptions} selects, read on the caller's thread: the
 * iteration blocks until the next event. The watch reconnects by itself after a broken
 * connection or a server-side timeout, from the last resourceVersion it reached, waiting 250 ms
 * doubling to 4 s between failed attempts; bookmarks are asked for and delivered. It ends (the
 * iteration throws a {@link KubernetesException}) on an error no retry mends (401, 403, 404, any
 * other 4xx but 408, 409, 410 and 429) and, when {@link WatchOptions#failWhenExpired()}, on 410 Gone.
 * Close it to end it; a blocked iteration then returns.
 *
 * @param <R> the model class
 */
public interface ResourceWatch<R extends KubernetesObject> extends Iterable<WatchEvent<R>>, AutoCloseable {

    /** Ends the watch; never throws. */
    @Override
    void close();
}
