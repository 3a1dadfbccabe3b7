package dev.mooring.engine.informer;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An informer's cache and its listeners (client-go's store with its event handlers): every change
 * is stored first and then told to every listener, in order, on the informer's thread. Reads are
 * safe from any thread.
 */
final class InformerStore<T extends KubernetesObject> {

    private final Map<ObjectKey, T> objects = new ConcurrentHashMap<>();
    private final List<InformerListener<T>> listeners = new CopyOnWriteArrayList<>();
    private final ObjectIndexes<T> indexes = new ObjectIndexes<>();

    void addListener(InformerListener<T> listener) {
        listeners.add(listener);
    }

    /** An added or modified object from a watch. */
    void put(T object) {
        T previous = objects.put(ObjectKey.of(object), object);
        indexes.update(previous, object);
        if (previous == null) {
            listeners.forEach(listener -> listener.onAdd(object, false));
        } else {
            listeners.forEach(listener -> listener.onUpdate(previous, object));
        }
    }

    /** A deleted object from a watch; the listeners get the cached state when there is one. */
    void remove(T object) {
        T previous = objects.remove(ObjectKey.of(object));
        indexes.update(previous, null);
        T deleted = previous != null ? previous : object;
        listeners.forEach(listener -> listener.onDelete(deleted));
    }

    /**
     * One object of the initial list, stored without telling the listeners: {@link #announceInitial}
     * tells them of every object once the list is complete. The list streams straight into the
     * store, so the first sync holds nothing beside the cache.
     */
    void fill(T object) {
        T previous = objects.put(ObjectKey.of(object), object);
        indexes.update(previous, object);
    }

    /** Forgets what an initial list that failed part-way stored; no listener heard of it. */
    void clearUnannounced() {
        for (T object : objects.values()) {
            indexes.update(object, null);
        }
        objects.clear();
    }

    /** Tells the listeners of every object {@link #fill} stored, as added in the initial list. */
    void announceInitial() {
        for (T object : objects.values()) {
            listeners.forEach(listener -> listener.onAdd(object, true));
        }
    }

    /**
     * Replaces the whole content with a complete list (a relist). The list goes into the store before any
     * listener hears of it: a pass woken by one change of the relist sees every other change of
     * it in the cache. Then deletes (gone, or replaced under the same name), then adds and updates.
     */
    void replace(Map<ObjectKey, T> listed) {
        List<Runnable> notifications = new ArrayList<>();
        for (Map.Entry<ObjectKey, T> old : new ArrayList<>(objects.entrySet())) {
            T now = listed.get(old.getKey());
            if (now == null || !Objects.equals(old.getValue().getMetadata().getUid(), now.getMetadata().getUid())) {
                objects.remove(old.getKey());
                indexes.update(old.getValue(), null);
                T gone = old.getValue();
                notifications.add(() -> listeners.forEach(listener -> listener.onDelete(gone)));
            }
        }
        for (Map.Entry<ObjectKey, T> entry : listed.entrySet()) {
            T previous = objects.put(entry.getKey(), entry.getValue());
            T now = entry.getValue();
            indexes.update(previous, now);
            notifications.add(previous == null ? () -> listeners.forEach(listener -> listener.onAdd(now, false))
                    : () -> listeners.forEach(listener -> listener.onUpdate(previous, now)));
        }
        notifications.forEach(Runnable::run);
    }

    /** Re-delivers every cached object as an update to itself (the periodic resync). */
    void resync() {
        for (T object : objects.values()) {
            listeners.forEach(listener -> listener.onUpdate(object, object));
        }
    }

    /** A copy of the cached object with this key. */
    Optional<T> get(ObjectKey key) {
        return cached(key).map(Models::copy);
    }

    /** The cached object itself, for reading only. */
    Optional<T> cached(ObjectKey key) {
        return Optional.ofNullable(objects.get(key));
    }

    /** Copies of every cached object. */
    List<T> list() {
        List<T> copies = new ArrayList<>(objects.size());
        objects.values().forEach(object -> copies.add(Models.copy(object)));
        return copies;
    }

    /** Adds an index over the cache, filled from what it holds now (see {@link ObjectIndexes#add}). */
    void addIndex(String name, String declaredBy, java.util.function.Function<T, java.util.Collection<String>> values) {
        indexes.add(name, declaredBy, values, objects.values());
    }

    /** Copies of the cached objects under {@code value} in the index {@code name}. */
    List<T> indexed(String name, String value) {
        List<T> copies = new ArrayList<>();
        for (ObjectKey key : indexes.keys(name, value)) {
            T object = objects.get(key);
            if (object != null) {
                copies.add(Models.copy(object));
            }
        }
        return copies;
    }

    int size() {
        return objects.size();
    }
}
