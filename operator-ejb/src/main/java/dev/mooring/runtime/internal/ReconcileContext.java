package dev.mooring.runtime.internal;

import dev.mooring.api.Cache;
import dev.mooring.api.Context;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.client.ResourceClient;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Map;
import java.util.function.Consumer;

/** The {@link Context} of one reconcile pass. */
record ReconcileContext<T extends KubernetesObject>(String controllerName, ObjectKey key, ResourceClient client,
        Map<Class<?>, Cache<?>> caches, Consumer<ObjectKey> enqueuer) implements Context<T> {

    @Override
    @SuppressWarnings("unchecked")
    public <K extends KubernetesObject> Cache<K> cached(Class<K> kind) {
        Cache<?> cache = caches.get(kind);
        if (cache == null) {
            throw new IllegalArgumentException(kind.getSimpleName() + " is not watched by controller " + controllerName
                    + "; declare it with @Controller(owns = ...) or a @Watch method");
        }
        return (Cache<K>) cache;
    }

    @Override
    public void enqueue(ObjectKey key) {
        enqueuer.accept(key);
    }
}
