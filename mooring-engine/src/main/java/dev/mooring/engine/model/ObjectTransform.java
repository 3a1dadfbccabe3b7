package dev.mooring.engine.model;

import dev.mooring.api.CacheTransform;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A transform a controller declares on the cache of a kind it watches ({@link CacheTransform}).
 *
 * @param kind the transformed kind
 * @param description what declares it ({@code Bean.method}), for errors and logs
 * @param transform the object to cache from the object received; may throw
 */
public record ObjectTransform(Class<? extends KubernetesObject> kind, String description,
        UnaryOperator<KubernetesObject> transform) {

    /**
     * The transformed kind of a {@code @CacheTransform} method, its signature checked.
     *
     * @throws IllegalArgumentException naming the method if it is not an instance method that is
     *     not private, taking one client-java model and returning that type
     */
    @SuppressWarnings("unchecked")
    public static Class<? extends KubernetesObject> transformedKind(Method method) {
        String where = "@CacheTransform method " + method.getDeclaringClass().getName() + "." + method.getName();
        if (Modifier.isStatic(method.getModifiers()) || Modifier.isPrivate(method.getModifiers())) {
            throw new IllegalArgumentException(where + " must be an instance method that is not private");
        }
        if (method.getParameterCount() != 1 || !KubernetesObject.class.isAssignableFrom(method.getParameterTypes()[0])) {
            throw new IllegalArgumentException(where + " must take one parameter, the client-java model of the kind it shapes");
        }
        if (method.getReturnType() != method.getParameterTypes()[0]) {
            throw new IllegalArgumentException(where + " must return its parameter's type, "
                    + method.getParameterTypes()[0].getSimpleName());
        }
        return (Class<? extends KubernetesObject>) method.getParameterTypes()[0];
    }

    /**
     * Checks the {@code @CacheTransform} methods of one controller against the kinds it watches.
     *
     * @throws IllegalArgumentException naming the method if a signature is wrong, its kind is not
     *     in {@code watched}, or a kind has two transforms
     */
    public static void check(Collection<Method> methods, Collection<Class<? extends KubernetesObject>> watched, String controller) {
        Set<Class<?>> kinds = new HashSet<>();
        for (Method method : methods) {
            Class<? extends KubernetesObject> kind = transformedKind(method);
            String where = "@CacheTransform method " + method.getDeclaringClass().getSimpleName() + "." + method.getName();
            if (!watched.contains(kind)) {
                throw new IllegalArgumentException(where + " shapes " + kind.getSimpleName() + ", which controller " + controller
                        + " does not watch; watch it as the primary kind, with @Controller(owns = ...) or a @Watch method");
            }
            if (!kinds.add(kind)) {
                throw new IllegalArgumentException(where + " is a second transform of " + kind.getSimpleName() + " in controller "
                        + controller + "; one method per kind");
            }
        }
    }

    /**
     * The transforms of {@code bean}'s {@code @CacheTransform} methods, checked (see {@link #check}).
     *
     * @throws IllegalArgumentException as {@link #check} does
     */
    public static List<ObjectTransform> of(Object bean, Collection<Method> methods, Collection<Class<? extends KubernetesObject>> watched,
            String controller) {
        check(methods, watched, controller);
        return methods.stream().map(method -> {
            method.setAccessible(true);
            UnaryOperator<KubernetesObject> call = object -> {
                try {
                    return (KubernetesObject) method.invoke(bean, object);
                } catch (InvocationTargetException e) {
                    throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            };
            return new ObjectTransform(transformedKind(method), method.getDeclaringClass().getSimpleName() + "." + method.getName(),
                    call);
        }).toList();
    }
}
