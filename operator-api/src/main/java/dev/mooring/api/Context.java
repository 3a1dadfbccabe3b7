package dev.mooring.api;

import dev.mooring.api.client.ResourceClient;
import io.kubernetes.client.common.KubernetesObject;

/**
 * What a reconciler can use during one pass. A context belongs to one pass: do not store it.
 *
 * @param <T> the controller's primary kind
 */
public interface Context<T extends KubernetesObject> {

    /** The name of the controller running this pass (unique within the deployment). */
    String controllerName();

    /** The key being reconciled. */
    ObjectKey key();

    /**
     * A live (uncached) client for any kind, sharing the operator's connection. Reads go to the
     * API server; writes take effect immediately. The client must not be closed.
     */
    ResourceClient client();

    /**
     * Cached reads of the primary kind or of a kind this controller watches (through
     * {@link Controller#owns()} or a {@link Watch} method). No request is made.
     *
     * @throws IllegalArgumentException if the controller does not watch {@code kind}
     */
    <K extends KubernetesObject> Cache<K> cached(Class<K> kind);

    /** Ask for another pass of {@code key} of this controller (see {@link Controllers#enqueue}). */
    void enqueue(ObjectKey key);
}
