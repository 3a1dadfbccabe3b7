package dev.mooring.engine.pass;

import dev.mooring.api.CustomResource;
import java.lang.reflect.Field;

/**
 * Whether the runtime keeps {@code status.observedGeneration} of a kind: a {@link CustomResource}
 * class whose status class declares a field {@code observedGeneration} (a {@code Long},
 * {@code long}, {@code Integer} or {@code int}), as the Java Operator SDK's observed-generation
 * aware status. Built-in kinds are left alone: their own controllers own that field (a
 * Deployment's is the Deployment controller's).
 */
final class ObservedGeneration {

    private ObservedGeneration() {
    }

    static boolean declaredBy(Class<?> kind) {
        if (!kind.isAnnotationPresent(CustomResource.class)) {
            return false;
        }
        Field status = field(kind, "status");
        Field observed = status == null ? null : field(status.getType(), "observedGeneration");
        return observed != null && (observed.getType() == Long.class || observed.getType() == long.class
                || observed.getType() == Integer.class || observed.getType() == int.class);
    }

    private static Field field(Class<?> type, String name) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                return c.getDeclaredField(name);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        return null;
    }
}
