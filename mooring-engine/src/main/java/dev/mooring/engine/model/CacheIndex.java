package dev.mooring.engine.model;

import dev.mooring.api.Index;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * An index a controller declares on the cache of a kind it watches ({@link Index}).
 *
 * @param kind the indexed kind
 * @param name the index's name
 * @param description what declares it ({@code Bean.method}), for conflicts and warnings
 * @param values the values an object is found under; may throw
 */
public record CacheIndex(Class<? extends KubernetesObject> kind, String name, String description,
        Function<KubernetesObject, Collection<String>> values) {

    /**
     * The indexed kind of an {@code @Index} method, its signature checked.
     *
     * @throws IllegalArgumentException naming the method if it is not an instance method taking one
     *     client-java model and returning {@code Collection<String>}, or has a blank name
     */
    @SuppressWarnings("unchecked")
    public static Class<? extends KubernetesObject> indexedKind(Method method) {
        String where = "@Index method " + method.getDeclaringClass().getName() + "." + method.getName();
        Index index = method.getAnnotation(Index.class);
        if (index == null || index.value().isBlank()) {
            throw new IllegalArgumentException(where + " needs a name: @Index(\"...\")");
        }
        if (Modifier.isStatic(method.getModifiers()) || Modifier.isPrivate(method.getModifiers())) {
            throw new IllegalArgumentException(where + " must be an instance method that is not private");
        }
        if (method.getParameterCount() != 1 || !KubernetesObject.class.isAssignableFrom(method.getParameterTypes()[0])) {
            throw new IllegalArgumentException(where + " must take one parameter, the indexed client-java model");
        }
        if (!Collection.class.isAssignableFrom(method.getReturnType())
                || !ControllerOptions.isCollectionOf(method.getGenericReturnType(), String.class)) {
            throw new IllegalArgumentException(where + " must return a Collection<String> (for example Set<String>)");
        }
        return (Class<? extends KubernetesObject>) method.getParameterTypes()[0];
    }

    /**
     * The index of an {@code @Index} method of {@code bean}, checked against the kinds the controller watches.
     *
     * @throws IllegalArgumentException if the signature is wrong or the kind is not in {@code watched}
     */
    @SuppressWarnings("unchecked")
    public static CacheIndex of(Object bean, Method method, Collection<Class<? extends KubernetesObject>> watched) {
        Class<? extends KubernetesObject> kind = indexedKind(method);
        String description = method.getDeclaringClass().getSimpleName() + "." + method.getName();
        if (!watched.contains(kind)) {
            throw new IllegalArgumentException("@Index method " + description + " indexes " + kind.getSimpleName()
                    + ", which its controller does not watch; watch it as the primary kind, with @Controller(owns = ...) or a @Watch method");
        }
        method.setAccessible(true);
        return new CacheIndex(kind, method.getAnnotation(Index.class).value(), description, object -> {
            try {
                return (Collection<String>) method.invoke(bean, object);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /**
     * The kinds a controller's caches hold whole: its primary, its owned kinds and its watched
     * ones, not those watched as metadata only.
     */
    public static List<Class<? extends KubernetesObject>> watchedKinds(ControllerDefinition definition, Collection<Method> watchMethods) {
        java.util.List<Class<? extends KubernetesObject>> kinds = new java.util.ArrayList<>();
        kinds.add(definition.kind());
        kinds.addAll(definition.owns());
        for (Method method : watchMethods) {
            Class<? extends KubernetesObject> kind = ControllerOptions.watchedKind(method);
            if (!ControllerOptions.metadataOnly(method)) {
                kinds.add(kind);
            }
        }
        return kinds;
    }
}
