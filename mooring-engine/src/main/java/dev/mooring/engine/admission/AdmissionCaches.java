package dev.mooring.engine.admission;

import dev.mooring.api.Cache;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.engine.informer.InformerCache;
import dev.mooring.engine.kube.Kinds;
import dev.mooring.engine.source.EventSource;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What admission requests read, as one value the dispatcher is given: the caches each bean
 * declared with {@code @AdmissionCache} (each kind pending until its informer is started), and
 * live clients. Safe for concurrent use: requests read while the caches start.
 */
public final class AdmissionCaches implements AdmissionReads {

    private final Map<Class<?>, Map<Class<?>, EventSource<?>>> caches = new ConcurrentHashMap<>();
    private final Map<Class<?>, String> pending = new ConcurrentHashMap<>();
    private final Function<String, ResourceClient> clients;

    /** @param clients a live client with a default namespace (null: none) */
    public AdmissionCaches(Function<String, ResourceClient> clients) {
        this.clients = clients;
    }

    /** {@code beanClass} reads {@code kind} from a cache, not started yet. */
    public void declare(Class<?> beanClass, Class<?> kind) {
        caches.computeIfAbsent(beanClass, bean -> new ConcurrentHashMap<>());
        pending.put(kind, "waiting for discovery");
    }

    /** The cache of {@code kind} cannot start yet, for this reason. */
    public void waiting(Class<?> kind, String why) {
        pending.put(kind, why);
    }

    /** The cache of {@code kind} that {@code beanClass} declared is {@code source}. */
    public void started(Class<?> beanClass, Class<?> kind, EventSource<?> source) {
        caches.computeIfAbsent(beanClass, bean -> new ConcurrentHashMap<>()).put(kind, source);
        pending.remove(kind);
    }

    /** The cache of {@code kind} will not start (its failure is reported elsewhere). */
    public void abandoned(Class<?> kind) {
        pending.remove(kind);
    }

    /**
     * Adds a line for each cache that does not serve yet (pending, syncing, failed) to
     * {@code details}.
     *
     * @return true when every declared cache serves
     */
    public boolean serving(Map<String, String> details) {
        boolean serving = true;
        for (Map.Entry<Class<?>, String> waiting : pending.entrySet()) {
            serving = false;
            details.put("cache " + Kinds.kindName(waiting.getKey()), waiting.getValue());
        }
        for (Map<Class<?>, EventSource<?>> byKind : caches.values()) {
            for (EventSource<?> source : byKind.values()) {
                if (source.failure().isPresent()) {
                    serving = false;
                    details.put("cache " + source.type().kind(), "failed: " + source.failure().get().getMessage());
                } else if (!source.hasSynced()) {
                    serving = false;
                    details.put("cache " + source.type().kind(), "syncing");
                }
            }
        }
        return serving;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K extends KubernetesObject> Cache<K> cached(Class<?> beanClass, Class<K> kind) {
        EventSource<?> source = caches.getOrDefault(beanClass, Map.of()).get(kind);
        String waiting = pending.get(kind);
        if (source == null && waiting != null) {
            throw new IllegalStateException("The admission cache of " + kind.getSimpleName() + " has not started: " + waiting);
        }
        if (source == null) {
            throw new IllegalArgumentException(beanClass.getSimpleName() + " reads " + kind.getSimpleName()
                    + " from a cache it did not declare: add it to @AdmissionCache on the bean");
        }
        return new InformerCache<>((EventSource<K>) source);
    }

    @Override
    public ResourceClient client(String namespace) {
        return clients.apply(namespace);
    }
}
