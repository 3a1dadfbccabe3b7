package dev.mooring.runtime.internal;

import dev.mooring.api.Context;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.client.ResourceClient;
import io.kubernetes.client.common.KubernetesObject;

/** The {@link Context} of one reconcile pass. */
record ReconcileContext<T extends KubernetesObject>(String controllerName, ObjectKey key, ResourceClient client)
        implements Context<T> {
}
