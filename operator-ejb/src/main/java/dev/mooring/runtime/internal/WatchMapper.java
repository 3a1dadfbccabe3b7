package dev.mooring.runtime.internal;

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

    /** Maps one state of a watched object to the keys to reconcile. */
    @FunctionalInterface
    public interface Mapping {
        Collection<?> map(KubernetesObject object) throws Exception;
    }
}
