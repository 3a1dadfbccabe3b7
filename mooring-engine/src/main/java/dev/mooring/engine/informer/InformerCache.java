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

    public InformerCache(EventSource<T> informer) {
        this.informer = informer;
    }

    @Override
    public Optional<T> get(String namespace, String name) {
        checkSynced();
        if (informer.type().namespaced() && (namespace == null || namespace.isBlank())) {
            throw new IllegalArgumentException(informer.type().kind() + " is namespaced: give a namespace to read " + name);
        }
        checkInScope(namespace);
        return informer.get(new ObjectKey(informer.type().namespaced() ? namespace : null, name));
    }

    @Override
    public List<T> list(String namespace) {
        return list(namespace, Map.of());
    }

    @Override
    public List<T> list(String namespace, Map<String, String> labels) {
        checkSynced();
        checkInScope(namespace);
        return informer.list().stream()
                .filter(object -> !informer.type().namespaced() || Objects.equals(namespace, object.getMetadata().getNamespace()))
                .filter(object -> hasLabels(object, labels))
                .toList();
    }

    @Override
    public List<T> listAll() {
        checkSynced();
        return informer.list();
    }

    @Override
    public List<T> indexed(String index, String value) {
        checkSynced();
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
