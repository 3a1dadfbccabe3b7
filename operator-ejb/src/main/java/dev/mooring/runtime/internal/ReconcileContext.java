package dev.mooring.runtime.internal;

import dev.mooring.api.Cache;
import dev.mooring.api.Context;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.client.ResourceClient;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Map;
import java.util.function.Consumer;

/** The {@link Context} of one reconcile pass. */
record ReconcileContext<T extends KubernetesObject>(String controllerName, ObjectKey key, T owner, ResourceClient client,
        Map<Class<?>, Cache<?>> caches, Map<Class<?>, Cache<?>> ownedCaches, Consumer<ObjectKey> enqueuer)
        implements Context<T> {

    /** The field manager of this controller's server-side applies. */
    String fieldManager() {
        String manager = "mooring-" + controllerName;
        return manager.length() <= 128 ? manager : manager.substring(0, 128);
    }

    @Override
    public <C extends KubernetesObject> C ensure(C desired) {
        return Children.ensure(client, owner, desired);
    }

    @Override
    public <C extends KubernetesObject> C apply(C desired) {
        return Children.apply(client, owner, desired, fieldManager());
    }

    @Override
    @SuppressWarnings("unchecked")
    public <C extends KubernetesObject> java.util.List<C> prune(Class<C> kind, java.util.Collection<String> keep) {
        Cache<?> owned = ownedCaches.get(kind);
        return Children.prune(client, owner, owned != null ? (Cache<C>) owned : cached(kind), keep);
    }

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
