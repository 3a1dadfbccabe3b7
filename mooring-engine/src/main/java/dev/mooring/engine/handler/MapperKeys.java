package dev.mooring.engine.handler;

import dev.mooring.api.Cache;
import dev.mooring.api.ObjectKey;
import dev.mooring.engine.model.WatchMapper;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Collection;
import java.util.List;

/**
 * The keys an author's {@code @Watch} method returns for a dependency, checked to be
 * {@link ObjectKey} values (the method's declared type cannot promise it at run time).
 */
public final class MapperKeys<D extends KubernetesObject> implements KeyMapping<D> {

    private final WatchMapper mapper;
    private final Cache<?> primaries;

    /** @param primaries the cache of the controller's primaries, for mappers that read it */
    public MapperKeys(WatchMapper mapper, Cache<?> primaries) {
        this.mapper = mapper;
        this.primaries = primaries;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Collection<ObjectKey> keys(D object, boolean deleted) throws Exception {
        Collection<?> keys = mapper.mapper().map(object, primaries);
        if (keys == null) {
            return List.of();
        }
        for (Object key : keys) {
            if (!(key instanceof ObjectKey)) {
                throw new IllegalStateException("returned " + (key == null ? "null" : key.getClass().getName())
                        + " instead of ObjectKey values");
            }
        }
        return (Collection<ObjectKey>) keys;
    }
}
