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
 * @param metadataOnly whether {@code kind} is watched as {@code PartialObjectMetadata}
 * @param selectors what limits the watched objects ({@code @Watch(labelSelector, fieldSelector)})
 */
public record WatchMapper(Class<? extends KubernetesObject> kind, String description, Mapping mapper, boolean metadataOnly,
        dev.mooring.engine.kube.Selectors selectors) {

    /** A mapper of every whole object of {@code kind} in the controller's scope. */
    public WatchMapper(Class<? extends KubernetesObject> kind, String description, Mapping mapper) {
        this(kind, description, mapper, false, dev.mooring.engine.kube.Selectors.NONE);
    }

    /**
     * The mapper of a {@code @Watch} method of {@code bean}: its first parameter is the watched
     * kind (or the metadata of {@code metadataOf}), its second (when it has one) the cache of the
     * controller's primaries; exceptions it throws are thrown as they are.
     *
     * @throws IllegalArgumentException naming the method if its label or field selector is not valid
     */
    public static WatchMapper of(Object bean, java.lang.reflect.Method method) {
        method.setAccessible(true);
        Class<? extends KubernetesObject> kind = ControllerOptions.watchedKind(method);
        boolean metadataOnly = ControllerOptions.metadataOnly(method);
        String description = method.getDeclaringClass().getSimpleName() + "." + method.getName();
        dev.mooring.engine.kube.Selectors selectors = ControllerOptions.watchSelectors(method);
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
        }, metadataOnly, selectors);
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
