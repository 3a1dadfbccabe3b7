package dev.mooring.engine.informer;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.lang.reflect.Field;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.Modifier;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes what an informer caches smaller without changing what it reads as: client-java's models
 * give every object empty label and annotation maps and empty finalizer and owner lists, and Gson
 * a tree map for a one-entry map; the cache keeps shared immutable empties and one-entry maps
 * instead (about 150 B per object), and one instance of each recent creation timestamp (an
 * {@code OffsetDateTime} is four objects, 96 B; objects created together share their second).
 *
 * <p>Only the cache's own objects are compacted, after the controller's transform: a pass, a
 * mapper, a cache read and a live client get copies ({@code Models.copy}), whose maps and lists
 * are mutable again. One instance per informer, used by its thread only.
 */
final class CacheCompaction {

    /** The top-level map and list fields of a model class, that can be set. */
    private static final ClassValue<List<Field>> COLLECTIONS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> declaring = type; declaring != null && declaring != Object.class; declaring = declaring.getSuperclass()) {
                for (Field field : declaring.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers()) && !Modifier.isFinal(field.getModifiers())
                            && (field.getType() == Map.class || field.getType() == List.class)) {
                        try {
                            field.setAccessible(true);
                            fields.add(field);
                        } catch (InaccessibleObjectException | SecurityException e) {
                            // left as it is
                        }
                    }
                }
            }
            return List.copyOf(fields);
        }
    };

    /** Recent creation timestamps: the most recent {@link #TIMES} kept, the oldest dropped first. */
    private static final int TIMES = 256;

    private final Map<OffsetDateTime, OffsetDateTime> times = new LinkedHashMap<>(TIMES * 4 / 3 + 1, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<OffsetDateTime, OffsetDateTime> eldest) {
            return size() > TIMES;
        }
    };

    /** {@code object}, compacted in place. */
    <T extends KubernetesObject> T compact(T object) {
        V1ObjectMeta metadata = object.getMetadata();
        if (metadata != null) {
            metadata.setLabels(compactMap(metadata.getLabels()));
            metadata.setAnnotations(compactMap(metadata.getAnnotations()));
            metadata.setFinalizers(compactList(metadata.getFinalizers()));
            metadata.setOwnerReferences(compactList(metadata.getOwnerReferences()));
            if (metadata.getCreationTimestamp() != null) {
                metadata.setCreationTimestamp(times.computeIfAbsent(metadata.getCreationTimestamp(), time -> time));
            }
        }
        for (Field field : COLLECTIONS.get(object.getClass())) {
            try {
                Object value = field.get(object);
                if (value instanceof Map<?, ?> map) {
                    field.set(object, compactMap(map));
                } else if (value instanceof List<?> list) {
                    field.set(object, compactList(list));
                }
            } catch (IllegalAccessException e) {
                // setAccessible succeeded for these fields; nothing to compact otherwise
            }
        }
        return object;
    }

    /** An empty map as the shared empty one, a one-entry map as an immutable one; others as they are. */
    @SuppressWarnings("unchecked")
    private static <K, V> Map<K, V> compactMap(Map<K, V> map) {
        if (map == null || map.size() > 1) {
            return map;
        }
        if (map.isEmpty()) {
            return Map.of();
        }
        Map.Entry<K, V> entry = map.entrySet().iterator().next();
        return entry.getKey() == null || entry.getValue() == null ? map : Map.of(entry.getKey(), entry.getValue());
    }

    private static <E> List<E> compactList(List<E> list) {
        return list != null && list.isEmpty() ? List.of() : list;
    }
}
