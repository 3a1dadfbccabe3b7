package dev.mooring.engine.model;

import dev.mooring.api.Cache;
import dev.mooring.api.ObjectKey;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Collection;

/**
 * A dependency watch of a controller: changes of {@code kind} are mapped to primary keys.
 *
 * @param kind the watched kind
 * @param description what the mapper is (for errors), such as {@code Bean.method}
 * @param mapper the mapping; it may throw, which fails the controller
 */
public record WatchMapper(Class<? extends KubernetesObject> kind, String description, Mapping mapper) {

    /**
     * The mapper of a {@code @Watch} method of {@code bean}: its first parameter is the watched
     * kind, its second (when it has one) the cache of the controller's primaries; exceptions it
     * throws are thrown as they are.
     */
    @SuppressWarnings("unchecked")
    public static WatchMapper of(Object bean, java.lang.reflect.Method method) {
        method.setAccessible(true);
        Class<? extends KubernetesObject> kind = (Class<? extends KubernetesObject>) method.getParameterTypes()[0];
        String description = method.getDeclaringClass().getSimpleName() + "." + method.getName();
        boolean withPrimaries = method.getParameterCount() == 2;
        return new WatchMapper(kind, description, new Mapping() {
            @Override
            public Collection<?> map(KubernetesObject object) throws Exception {
                return map(object, null);
            }

            @Override
            public Collection<?> map(KubernetesObject object, Cache<?> primaries) throws Exception {
                try {
                    return (Collection<?>) (withPrimaries ? method.invoke(bean, object, primaries) : method.invoke(bean, object));
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
        });
    }

    /** Maps one state of a watched object to the keys to reconcile. */
    @FunctionalInterface
    public interface Mapping {
        Collection<?> map(KubernetesObject object) throws Exception;

        /** {@link #map(KubernetesObject)}, with the cache of the controller's primaries for a mapper that reads it. */
        default Collection<?> map(KubernetesObject object, Cache<?> primaries) throws Exception {
            return map(object);
        }
    }
}
