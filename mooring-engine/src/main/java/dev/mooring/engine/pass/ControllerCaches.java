package dev.mooring.engine.pass;

import dev.mooring.api.Cache;
import dev.mooring.api.PartialObjectMetadata;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The caches one controller's passes read, by kind: every kind it watches, the kinds it owns (for
 * creating and pruning children) and the kinds it watches as metadata only. Filled by the
 * controller's runner while it is wired, before any pass; the first cache registered for a
 * kind stays.
 */
public final class ControllerCaches {

    private final String controller;
    private final Map<Class<?>, Cache<?>> watched = new ConcurrentHashMap<>();
    private final Map<Class<?>, Cache<?>> owned = new ConcurrentHashMap<>();
    private final Map<Class<?>, Cache<PartialObjectMetadata>> metadata = new ConcurrentHashMap<>();
    /** The label selector of the owned kinds' caches, or null for none. */
    private volatile dev.mooring.engine.kube.Selectors ownedSelectors = dev.mooring.engine.kube.Selectors.NONE;

    /** @param controller the controller's name, for the messages of a kind it does not watch */
    public ControllerCaches(String controller) {
        this.controller = controller;
    }

    /** Registers the cache of a watched kind (the primary's included). */
    public ControllerCaches watched(Class<?> kind, Cache<?> cache) {
        watched.putIfAbsent(kind, cache);
        return this;
    }

    /** Registers the cache of an owned kind: for the primary's own kind, a cache apart from the primary cache. */
    public ControllerCaches owned(Class<?> kind, Cache<?> cache) {
        owned.putIfAbsent(kind, cache);
        return this;
    }

    /** The owned kinds' caches hold only the children that match {@code selectors}. */
    public ControllerCaches ownedSelectors(dev.mooring.engine.kube.Selectors selectors) {
        this.ownedSelectors = selectors;
        return this;
    }

    /**
     * Checks that a child this controller writes will be cached: with an owned label selector,
     * its labels must match it.
     *
     * @throws dev.mooring.api.TerminalException naming the child, the selector and the controller
     */
    void checkCachable(KubernetesObject child) {
        io.kubernetes.client.openapi.models.V1LabelSelector selector = ownedSelectors.labelSelector();
        if (selector != null && !dev.mooring.engine.kube.LabelSelectors.matches(selector,
                child.getMetadata() == null ? null : child.getMetadata().getLabels())) {
            throw new dev.mooring.api.TerminalException(child.getClass().getSimpleName() + " "
                    + (child.getMetadata() == null ? "" : child.getMetadata().getName()) + " does not match the owns-label-selector '"
                    + ownedSelectors.labels() + "' of controller " + controller + ": it would never be cached, so every pass would"
                    + " read it and its changes would not reconcile its owner; give it labels that match");
        }
    }

    /** Registers the cache of a kind watched as metadata only. */
    public ControllerCaches metadata(Class<?> kind, Cache<PartialObjectMetadata> cache) {
        metadata.putIfAbsent(kind, cache);
        return this;
    }

    /**
     * The cache of a watched kind.
     *
     * @throws IllegalArgumentException naming the kind and the controller if it does not watch the kind
     */
    @SuppressWarnings("unchecked")
    <K extends KubernetesObject> Cache<K> watched(Class<K> kind) {
        Cache<?> cache = watched.get(kind);
        if (cache == null) {
            throw new IllegalArgumentException(kind.getSimpleName() + " is not watched by controller " + controller
                    + "; declare it with @Controller(owns = ...) or a @Watch method");
        }
        return (Cache<K>) cache;
    }

    /** The cache of an owned kind, or null if the controller does not own it. */
    @SuppressWarnings("unchecked")
    <C extends KubernetesObject> Cache<C> ownedOrNull(Class<C> kind) {
        return (Cache<C>) owned.get(kind);
    }

    /**
     * The children's cache of a kind: the owned kind's if owned, else the watched kind's.
     *
     * @throws IllegalArgumentException if the controller neither owns nor watches the kind
     */
    <C extends KubernetesObject> Cache<C> children(Class<C> kind) {
        Cache<C> cache = ownedOrNull(kind);
        return cache != null ? cache : watched(kind);
    }

    /**
     * The metadata cache of a kind.
     *
     * @throws IllegalArgumentException naming the kind and the controller if it does not watch the kind's metadata
     */
    Cache<PartialObjectMetadata> metadata(Class<? extends KubernetesObject> kind) {
        Cache<PartialObjectMetadata> cache = metadata.get(kind);
        if (cache == null) {
            throw new IllegalArgumentException("The metadata of " + kind.getSimpleName() + " is not watched by controller "
                    + controller + "; declare it with @Watch(metadataOf = " + kind.getSimpleName() + ".class)");
        }
        return cache;
    }
}
