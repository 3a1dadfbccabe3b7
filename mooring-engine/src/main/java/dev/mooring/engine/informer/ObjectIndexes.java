package dev.mooring.engine.informer;

import dev.mooring.api.Cache;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.OwnerReferences;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The indexes of one informer's cache (client-go's indexers): for each index, its values to the
 * keys of the objects under them. Every cache has {@link Cache#CONTROLLER_INDEX}; controllers add
 * theirs. Kept up to date by the store on every change, read from any thread.
 *
 * <p>Written here rather than taken from client-java's {@code Indexer}: Mooring's store keeps
 * models by {@link ObjectKey}, and an index must carry who declared it, so that two declarations
 * of one name are refused rather than one silently replacing the other.
 */
final class ObjectIndexes<T extends KubernetesObject> {

    private static final Logger LOG = Logger.getLogger(ObjectIndexes.class.getName());

    /** An index function and what declared it (for conflicts and warnings), such as {@code Bean.method}. */
    private record Indexer<T>(String declaredBy, Function<T, Collection<String>> values) {
    }

    private final Map<String, Indexer<T>> indexers = new LinkedHashMap<>();
    private final Map<String, Map<String, Set<ObjectKey>>> entries = new HashMap<>();

    ObjectIndexes() {
        indexers.put(Cache.CONTROLLER_INDEX, new Indexer<>("Mooring", object -> OwnerReferences.controllerReference(object)
                .map(reference -> reference.getUid()).map(List::of).orElse(List.of()))); // a null uid maps to empty
        entries.put(Cache.CONTROLLER_INDEX, new HashMap<>());
    }

    /**
     * Adds an index, filled from {@code current} (what the cache holds now). Declaring an index again
     * with the same {@code declaredBy} keeps the one there (a controller wired again after a restart).
     *
     * @throws IllegalStateException if another declaration has that name
     */
    synchronized void add(String name, String declaredBy, Function<T, Collection<String>> values, Collection<T> current) {
        Indexer<T> existing = indexers.get(name);
        if (existing != null) {
            if (!existing.declaredBy().equals(declaredBy)) {
                throw new IllegalStateException("Index '" + name + "' is declared by both " + existing.declaredBy() + " and "
                        + declaredBy + " for the same cache; give one of them another name");
            }
            return;
        }
        Indexer<T> indexer = new Indexer<>(declaredBy, values);
        indexers.put(name, indexer);
        Map<String, Set<ObjectKey>> index = new HashMap<>();
        entries.put(name, index);
        for (T object : current) {
            insert(index, indexer, object);
        }
    }

    /** An object changed: {@code old} (null when added) is replaced by {@code now} (null when deleted). */
    synchronized void update(T old, T now) {
        for (Map.Entry<String, Indexer<T>> entry : indexers.entrySet()) {
            Map<String, Set<ObjectKey>> index = entries.get(entry.getKey());
            if (old != null) {
                ObjectKey key = ObjectKey.of(old);
                for (String value : values(entry.getValue(), old)) {
                    Set<ObjectKey> keys = index.get(value);
                    if (keys != null && keys.remove(key) && keys.isEmpty()) {
                        index.remove(value);
                    }
                }
            }
            if (now != null) {
                insert(index, entry.getValue(), now);
            }
        }
    }

    /**
     * The keys under {@code value} in the index {@code name}.
     *
     * @throws IllegalArgumentException if there is no such index
     */
    synchronized Set<ObjectKey> keys(String name, String value) {
        Map<String, Set<ObjectKey>> index = entries.get(name);
        if (index == null) {
            throw new IllegalArgumentException("No index '" + name + "' on this cache; its indexes: " + indexers.keySet());
        }
        Set<ObjectKey> keys = index.get(value);
        return keys == null ? Set.of() : Set.copyOf(keys);
    }

    private void insert(Map<String, Set<ObjectKey>> index, Indexer<T> indexer, T object) {
        ObjectKey key = ObjectKey.of(object);
        for (String value : values(indexer, object)) {
            index.computeIfAbsent(value, unused -> new HashSet<>()).add(key);
        }
    }

    private Collection<String> values(Indexer<T> indexer, T object) {
        try {
            Collection<String> values = indexer.values().apply(object);
            return values == null ? List.of() : values.stream().filter(value -> value != null).toList();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> "Index " + indexer.declaredBy() + " failed on " + object.getKind() + " "
                    + ObjectKey.of(object) + "; the object is left out of that index: " + e);
            return List.of();
        }
    }
}
