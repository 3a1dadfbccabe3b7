package dev.mooring.engine.model;

import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.List;

/**
 * A controller as declared by a reconciler bean, with every option resolved (annotation, then
 * MicroProfile Config overrides) and validated.
 *
 * @param name unique controller name
 * @param kind the primary kind's model class
 * @param namespace the namespace to watch; empty for the operator's namespace, null for all namespaces
 * @param labelSelector label selector, or null
 * @param workers number of concurrent reconciles, at least 1
 * @param resync period of re-delivering every cached object
 * @param syncTimeout bound of start-up (discovery and initial lists)
 * @param shutdownTimeout how long accepted work may drain on stop
 * @param reconcileTimeout bound of one pass, or null for none
 * @param statusEvents whether status-only updates of the primary trigger a reconcile
 * @param owns owned child kinds
 * @param watches dependency watches with mappers
 * @param finalizer the finalizer of a reconciler that implements {@code Cleanup}, or null
 * @param indexes the indexes it declares on the caches of the kinds it watches
 * @param transforms the transforms it declares on the caches of the kinds it watches, at most one per kind
 */
public record ControllerDefinition(String name, Class<? extends KubernetesObject> kind, String namespace,
        String labelSelector, int workers, Duration resync, Duration syncTimeout, Duration shutdownTimeout,
        Duration reconcileTimeout, boolean statusEvents, List<Class<? extends KubernetesObject>> owns,
        List<WatchMapper> watches, String finalizer, List<CacheIndex> indexes, List<ObjectTransform> transforms) {

    /** A definition without cache transforms. */
    public ControllerDefinition(String name, Class<? extends KubernetesObject> kind, String namespace,
            String labelSelector, int workers, Duration resync, Duration syncTimeout, Duration shutdownTimeout,
            Duration reconcileTimeout, boolean statusEvents, List<Class<? extends KubernetesObject>> owns,
            List<WatchMapper> watches, String finalizer, List<CacheIndex> indexes) {
        this(name, kind, namespace, labelSelector, workers, resync, syncTimeout, shutdownTimeout, reconcileTimeout, statusEvents,
                owns, watches, finalizer, indexes, List.of());
    }

    /** A definition without indexes. */
    public ControllerDefinition(String name, Class<? extends KubernetesObject> kind, String namespace,
            String labelSelector, int workers, Duration resync, Duration syncTimeout, Duration shutdownTimeout,
            Duration reconcileTimeout, boolean statusEvents, List<Class<? extends KubernetesObject>> owns,
            List<WatchMapper> watches, String finalizer) {
        this(name, kind, namespace, labelSelector, workers, resync, syncTimeout, shutdownTimeout, reconcileTimeout, statusEvents,
                owns, watches, finalizer, List.of());
    }

    /** Longest allowed name: 118 characters, so that event source names stay within 128. */
    public static final int MAX_NAME_LENGTH = 118;

    /** The namespace to watch, with the operator's namespace filled in; null for all namespaces. */
    public String namespaceOr(String operatorNamespace) {
        return namespace == null ? null : namespace.isEmpty() ? operatorNamespace : namespace;
    }

    /** This definition with these dependency watches. */
    public ControllerDefinition withWatches(List<WatchMapper> mappers) {
        return new ControllerDefinition(name, kind, namespace, labelSelector, workers, resync, syncTimeout,
                shutdownTimeout, reconcileTimeout, statusEvents, owns, List.copyOf(mappers), finalizer, indexes, transforms);
    }

    /** This definition with these cache indexes. */
    public ControllerDefinition withIndexes(List<CacheIndex> declared) {
        return new ControllerDefinition(name, kind, namespace, labelSelector, workers, resync, syncTimeout,
                shutdownTimeout, reconcileTimeout, statusEvents, owns, watches, finalizer, List.copyOf(declared), transforms);
    }

    /** This definition with these cache transforms. */
    public ControllerDefinition withTransforms(List<ObjectTransform> declared) {
        return new ControllerDefinition(name, kind, namespace, labelSelector, workers, resync, syncTimeout,
                shutdownTimeout, reconcileTimeout, statusEvents, owns, watches, finalizer, indexes, List.copyOf(declared));
    }

    /** The transform this controller declares for {@code type}, or null. */
    public ObjectTransform transformOf(Class<?> type) {
        return transforms.stream().filter(transform -> transform.kind() == type).findFirst().orElse(null);
    }

    /** This definition with the namespace resolved. */
    public ControllerDefinition withNamespace(String operatorNamespace) {
        return new ControllerDefinition(name, kind, namespaceOr(operatorNamespace), labelSelector, workers, resync,
                syncTimeout, shutdownTimeout, reconcileTimeout, statusEvents, owns, watches, finalizer, indexes, transforms);
    }
}
