package dev.mooring.engine.informer;

import dev.mooring.api.Cache;
import dev.mooring.api.ObjectKey;
import dev.mooring.engine.source.EventSource;
import io.kubernetes.client.common.KubernetesObject;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** {@link Cache} reads backed by an event source's store (an informer's); every result is a copy. */
public final class InformerCache<T extends KubernetesObject> implements Cache<T> {

    private final EventSource<T> informer;
    private final ReadYourWrites reads;
    private final String reader;

    /** Reads as cached, waiting for no write (a mapper's or an admission check's reads). */
    public InformerCache(EventSource<T> informer) {
        this(informer, ReadYourWrites.OFF, null);
    }

    /** Reads of {@code reader}'s passes: each first waits for the runtime's pending writes of what it reads (see {@link ReadYourWrites}). */
    public InformerCache(EventSource<T> informer, ReadYourWrites reads, String reader) {
        this.informer = informer;
        this.reads = java.util.Objects.requireNonNull(reads, "reads");
        this.reader = reader;
    }

    @Override
    public Optional<T> get(String namespace, String name) {
        checkSynced();
        if (informer.type().namespaced() && (namespace == null || namespace.isBlank())) {
            throw new IllegalArgumentException(informer.type().kind() + " is namespaced: give a namespace to read " + name);
        }
        checkInScope(namespace);
        ObjectKey key = new ObjectKey(informer.type().namespaced() ? namespace : null, name);
        reads.awaitKey(reader, informer, key);
        return informer.get(key);
    }

    @Override
    public List<T> list(String namespace) {
        return list(namespace, Map.of());
    }

    @Override
    public List<T> list(String namespace, Map<String, String> labels) {
        checkSynced();
        checkInScope(namespace);
        reads.awaitList(reader, informer, namespace);
        return informer.list().stream()
                .filter(object -> !informer.type().namespaced() || Objects.equals(namespace, object.getMetadata().getNamespace()))
                .filter(object -> hasLabels(object, labels))
                .toList();
    }

    @Override
    public List<T> listAll() {
        checkSynced();
        reads.awaitList(reader, informer, null);
        return informer.list();
    }

    @Override
    public List<T> indexed(String index, String value) {
        checkSynced();
        reads.awaitIndexed(reader, informer, index, value);
        return informer.indexed(index, value);
    }

    private void checkSynced() {
        informer.failure().ifPresent(cause -> {
            throw new IllegalStateException("The cache of " + informer.describe() + " failed: " + cause.getMessage(), cause);
        });
        if (!informer.hasSynced()) {
            throw new IllegalStateException("The cache of " + informer.describe() + " has not synced yet");
        }
    }

    /**
     * A read in a namespace the cache does not hold is a mistake, not an empty answer (the
     * reference and controller-runtime refuse it too): the cache would answer "none" for objects
     * that may well exist.
     */
    private void checkInScope(String namespace) {
        if (informer.type().namespaced() && namespace != null && !informer.holds(namespace)) {
            throw new IllegalArgumentException("The cache of " + informer.describe() + " does not hold namespace " + namespace
                    + ": a read outside the controller's namespaces (read it with the client)");
        }
    }

    private static boolean hasLabels(KubernetesObject object, Map<String, String> labels) {
        if (labels.isEmpty()) {
            return true;
        }
        Map<String, String> actual = object.getMetadata().getLabels();
        return actual != null && actual.entrySet().containsAll(labels.entrySet());
    }
}
