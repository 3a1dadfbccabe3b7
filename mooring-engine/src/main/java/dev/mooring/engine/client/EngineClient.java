package dev.mooring.engine.client;

import dev.mooring.api.client.ResourceClient;
import io.kubernetes.client.common.KubernetesObject;

/**
 * The client a reconcile pass is given: the author's {@link ResourceClient}, and the one write
 * the engine makes of its own before {@code reconcile}.
 */
public interface EngineClient extends ResourceClient {

    /**
     * Add {@code finalizer} to an object as cached, with one guarded write and no read: a stale
     * copy fails with a conflict (the pass is retried with the newer one).
     *
     * @return the object as stored, carrying the finalizer
     * @throws dev.mooring.api.TerminalException if the object's deletion has begun
     */
    <R extends KubernetesObject> R addFinalizer(R cached, String finalizer);
}
