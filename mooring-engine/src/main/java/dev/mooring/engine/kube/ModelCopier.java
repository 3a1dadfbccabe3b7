package dev.mooring.engine.kube;

import io.kubernetes.client.openapi.JSON;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Deep copies of model objects field by field, without a JSON round trip: a copy shares no
 * mutable part with its original, and equals what client-java's JSON would make of it.
 *
 * <p>Immutable values (strings, numbers, booleans, enums, {@code java.time} values,
 * {@code Quantity}, {@code IntOrString}) are shared; lists, sets, maps and arrays are copied
 * element by element; other objects are copied through their no-argument constructor and every
 * instance field of their class and superclasses. An object of a class that has no such
 * constructor, or is a record, is copied through client-java's JSON instead.
 *
 * <p>Written here rather than taken from a library: client-java's models have no copy
 * constructors, and a JSON round trip is the most expensive part of a reconcile pass.
 */
final class ModelCopier {

    /** How to copy an instance of a class: derived from the class alone, so one per class is kept for the class's life. */
    private static final ClassValue<Plan> PLANS = new ClassValue<>() {
        @Override
        protected Plan computeValue(Class<?> type) {
            return Plan.of(type);
        }
    };

    private ModelCopier() {
    }

    /** A deep copy of {@code value} (null for null). */
    @SuppressWarnings("unchecked")
    static <V> V copy(V value) {
        return (V) copyValue(value);
    }

    @SuppressWarnings("unchecked")
    private static Object copyValue(Object value) {
        if (value == null || immutable(value.getClass())) {
            return value;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (Object element : list) {
                copy.add(copyValue(element));
            }
            return copy;
        }
        if (value instanceof java.util.SortedMap<?, ?> sorted) {
            java.util.SortedMap<Object, Object> copy = new java.util.TreeMap<>((java.util.Comparator<Object>) sorted.comparator());
            for (Map.Entry<?, ?> entry : sorted.entrySet()) {
                copy.put(entry.getKey(), copyValue(entry.getValue()));
            }
            return copy;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>(Math.max(4, map.size() * 4 / 3 + 1));
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                copy.put(entry.getKey(), copyValue(entry.getValue()));
            }
            return copy;
        }
        if (value instanceof Set<?> set) {
            Set<Object> copy = new LinkedHashSet<>();
            for (Object element : set) {
                copy.add(copyValue(element));
            }
            return copy;
        }
        if (value instanceof byte[] bytes) {
            return bytes.clone();
        }
        if (value instanceof Object[] array) {
            Object[] copy = array.clone();
            for (int i = 0; i < copy.length; i++) {
                copy[i] = copyValue(copy[i]);
            }
            return copy;
        }
        if (value instanceof com.google.gson.JsonElement json) {
            return json.deepCopy();
        }
        return PLANS.get(value.getClass()).copy(value);
    }

    private static boolean immutable(Class<?> type) {
        return type == String.class || type == Integer.class || type == Long.class || type == Boolean.class
                || type == Double.class || type == Float.class || type == Short.class || type == Byte.class
                || type == Character.class || type == java.math.BigDecimal.class || type == java.math.BigInteger.class
                || type.isEnum() || (type.getSuperclass() != null && type.getSuperclass().isEnum())
                || type == java.time.OffsetDateTime.class || type == java.time.Instant.class
                || type == java.time.LocalDate.class || type == java.time.LocalDateTime.class
                || type == java.time.ZonedDateTime.class || type == java.util.UUID.class
                || type == io.kubernetes.client.custom.Quantity.class || type == io.kubernetes.client.custom.IntOrString.class
                || type == com.google.gson.internal.LazilyParsedNumber.class;
    }

    /** The copy of one class: its constructor and fields, or client-java's JSON when it has none to use. */
    private record Plan(Constructor<?> constructor, Field[] fields) {

        static Plan of(Class<?> type) {
            if (type.isRecord() || type.isInterface() || Modifier.isAbstract(type.getModifiers()) || type.isPrimitive()) {
                return new Plan(null, null);
            }
            try {
                Constructor<?> constructor = type.getDeclaredConstructor();
                constructor.setAccessible(true);
                List<Field> fields = new ArrayList<>();
                for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
                    for (Field field : current.getDeclaredFields()) {
                        if (!Modifier.isStatic(field.getModifiers())) {
                            field.setAccessible(true);
                            fields.add(field);
                        }
                    }
                }
                return new Plan(constructor, fields.toArray(Field[]::new));
            } catch (NoSuchMethodException | RuntimeException e) {
                // no no-argument constructor, or a module that does not open the class: JSON copies it
                return new Plan(null, null);
            }
        }

        Object copy(Object original) {
            if (constructor == null) {
                return JSON.getGson().fromJson(JSON.getGson().toJsonTree(original), original.getClass());
            }
            try {
                Object copy = constructor.newInstance();
                for (Field field : fields) {
                    Class<?> type = field.getType();
                    if (type.isPrimitive()) {
                        copyPrimitive(field, original, copy);
                    } else {
                        field.set(copy, copyValue(field.get(original)));
                    }
                }
                return copy;
            } catch (InstantiationException | IllegalAccessException | IllegalArgumentException e) {
                // a field of a collection type that is no List, Set or Map of the kinds copied here
                return JSON.getGson().fromJson(JSON.getGson().toJsonTree(original), original.getClass());
            } catch (InvocationTargetException e) {
                throw new IllegalStateException("The constructor of " + original.getClass().getName() + " failed: "
                        + e.getCause(), e.getCause());
            }
        }

        private static void copyPrimitive(Field field, Object original, Object copy) throws IllegalAccessException {
            Class<?> type = field.getType();
            if (type == int.class) {
                field.setInt(copy, field.getInt(original));
            } else if (type == long.class) {
                field.setLong(copy, field.getLong(original));
            } else if (type == boolean.class) {
                field.setBoolean(copy, field.getBoolean(original));
            } else if (type == double.class) {
                field.setDouble(copy, field.getDouble(original));
            } else {
                field.set(copy, field.get(original));
            }
        }
    }
}
