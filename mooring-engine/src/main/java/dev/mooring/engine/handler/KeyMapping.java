package dev.mooring.engine.handler;

import dev.mooring.api.ObjectKey;
import java.util.Collection;

/**
 * The keys of the primary objects that one state of a watched object concerns.
 *
 * @param <D> the watched kind
 */
@FunctionalInterface
public interface KeyMapping<D> {

    /**
     * @param object a copy of the watched object, the caller's to keep
     * @param deleted true when the object was deleted
     * @throws Exception when no keys can be computed: the controller fails
     */
    Collection<ObjectKey> keys(D object, boolean deleted) throws Exception;
}
