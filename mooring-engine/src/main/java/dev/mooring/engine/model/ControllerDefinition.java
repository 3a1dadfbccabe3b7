package dev.mooring.engine.model;

import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A controller as declared by a reconciler bean, with every option resolved (annotation, then
 * MicroProfile Config overrides) and validated by {@link ControllerOptions}. Built with
 * {@link #builder}; a copy with some parts changed with {@link #toBuilder}. Immutable; two
 * definitions with the same parts are equal.
 */
public final class ControllerDefinition {

    /** Longest allowed name: 118 characters, so that event source names stay within 128. */
    public static final int MAX_NAME_LENGTH = 118;

    private final String name;
    private final Class<? extends KubernetesObject> kind;
    private final String namespace;
    private final java.util.Set<String> namespaces;
    private final String labelSelector;
    private final int workers;
    private final Duration resync;
    private final Duration syncTimeout;
    private final Duration shutdownTimeout;
    private final Duration reconcileTimeout;
    private final boolean statusEvents;
    private final QueuePolicy queuePolicy;
    private final List<Class<? extends KubernetesObject>> owns;
    private final dev.mooring.engine.kube.Selectors ownsSelectors;
    private final List<WatchMapper> watches;
    private final String finalizer;
    private final List<CacheIndex> indexes;
    private final List<ObjectTransform> transforms;
    private final List<Poller> polls;
    private final java.util.Set<String> managedConditions;

    private ControllerDefinition(Builder builder) {
        this.name = builder.name;
        this.kind = builder.kind;
        this.namespace = builder.namespace;
        this.namespaces = builder.namespaces == null ? null : java.util.Collections.unmodifiableSet(
                new java.util.LinkedHashSet<>(builder.namespaces));
        this.labelSelector = builder.labelSelector;
        this.ownsSelectors = builder.ownsSelectors;
        this.workers = builder.workers;
        this.resync = builder.resync;
        this.syncTimeout = builder.syncTimeout;
        this.shutdownTimeout = builder.shutdownTimeout;
        this.reconcileTimeout = builder.reconcileTimeout;
        this.statusEvents = builder.statusEvents;
        this.queuePolicy = builder.queuePolicy;
        this.owns = List.copyOf(builder.owns);
        this.watches = List.copyOf(builder.watches);
        this.finalizer = builder.finalizer;
        this.indexes = List.copyOf(builder.indexes);
        this.transforms = List.copyOf(builder.transforms);
        this.polls = List.copyOf(builder.polls);
        this.managedConditions = java.util.Set.copyOf(builder.managedConditions);
    }

    /** A definition of controller {@code name} for primary kind {@code kind}, the other parts at their defaults (see {@link Builder}). */
    public static Builder builder(String name, Class<? extends KubernetesObject> kind) {
        return new Builder(name, kind);
    }

    /** A builder holding every part of this definition. */
    public Builder toBuilder() {
        return new Builder(name, kind).namespace(namespace).namespaces(namespaces).labelSelector(labelSelector).ownsSelectors(ownsSelectors).workers(workers).resync(resync)
                .syncTimeout(syncTimeout).shutdownTimeout(shutdownTimeout).reconcileTimeout(reconcileTimeout).statusEvents(statusEvents)
                .queuePolicy(queuePolicy).owns(owns).watches(watches).finalizer(finalizer).indexes(indexes).transforms(transforms)
                .polls(polls).managedConditions(managedConditions);
    }

    /** Unique controller name. */
    public String name() {
        return name;
    }

    /** The primary kind's model class. */
    public Class<? extends KubernetesObject> kind() {
        return kind;
    }

    /** The namespace to watch; empty for the operator's namespace, null for all namespaces. */
    public String namespace() {
        return namespace;
    }

    /** Label selector, or null. */
    public String labelSelector() {
        return labelSelector;
    }

    /** What limits the caches of the owned kinds (the same for each); {@code Selectors.NONE} by default. */
    public dev.mooring.engine.kube.Selectors ownsSelectors() {
        return ownsSelectors;
    }

    /** Number of concurrent reconciles, at least 1. */
    public int workers() {
        return workers;
    }

    /** Period of re-delivering every cached object. */
    public Duration resync() {
        return resync;
    }

    /** Bound of start-up (discovery and initial lists). */
    public Duration syncTimeout() {
        return syncTimeout;
    }

    /** How long accepted work may drain on stop. */
    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /** Bound of one pass, or null for none. */
    public Duration reconcileTimeout() {
        return reconcileTimeout;
    }

    /** Whether status-only updates of the primary trigger a reconcile. */
    public boolean statusEvents() {
        return statusEvents;
    }

    /** Owned child kinds. */
    public List<Class<? extends KubernetesObject>> owns() {
        return owns;
    }

    /** Dependency watches with mappers. */
    public List<WatchMapper> watches() {
        return watches;
    }

    /** The finalizer of a reconciler that implements {@code Cleanup}, or null. */
    public String finalizer() {
        return finalizer;
    }

    /** The indexes it declares on the caches of the kinds it watches. */
    public List<CacheIndex> indexes() {
        return indexes;
    }

    /** The transforms it declares on the caches of the kinds it watches, at most one per kind. */
    public List<ObjectTransform> transforms() {
        return transforms;
    }

    /** The bean's {@code @Poll} methods. */
    public List<Poller> polls() {
        return polls;
    }

    /** How the controller's queue retries and paces its passes. */
    public QueuePolicy queuePolicy() {
        return queuePolicy;
    }

    /** The condition types the controller's stages manage (a {@code Staged} reconciler's); empty for other reconcilers. */
    public java.util.Set<String> managedConditions() {
        return managedConditions;
    }

    /**
     * The set of namespaces to watch, at start, for a controller that watches a set (which may
     * change while it runs); null for one that watches one namespace or all of them ({@link #namespace()}).
     */
    public java.util.Set<String> namespaces() {
        return namespaces;
    }

    /**
     * The namespaces watched at start, for what is generated from a definition (RBAC, webhook
     * scopes): the set, or the one namespace as given (null: all namespaces).
     */
    public List<String> scopes() {
        return namespaces != null ? List.copyOf(namespaces) : java.util.Collections.singletonList(namespace);
    }

    /** The namespace to watch, with the operator's namespace filled in; null for all namespaces. */
    public String namespaceOr(String operatorNamespace) {
        return namespace == null ? null : namespace.isEmpty() ? operatorNamespace : namespace;
    }

    /** This definition with these dependency watches. */
    public ControllerDefinition withWatches(List<WatchMapper> mappers) {
        return toBuilder().watches(mappers).build();
    }

    /** This definition with these cache indexes. */
    public ControllerDefinition withIndexes(List<CacheIndex> declared) {
        return toBuilder().indexes(declared).build();
    }

    /** This definition with these cache transforms. */
    public ControllerDefinition withTransforms(List<ObjectTransform> declared) {
        return toBuilder().transforms(declared).build();
    }

    /** This definition with the namespace resolved. */
    public ControllerDefinition withNamespace(String operatorNamespace) {
        return toBuilder().namespace(namespaceOr(operatorNamespace)).build();
    }

    /** The transform this controller declares for {@code type}, or null. */
    public ObjectTransform transformOf(Class<?> type) {
        return transforms.stream().filter(transform -> transform.kind() == type).findFirst().orElse(null);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ControllerDefinition that && name.equals(that.name) && kind == that.kind
                && Objects.equals(namespace, that.namespace) && Objects.equals(namespaces, that.namespaces)
                && Objects.equals(labelSelector, that.labelSelector)
                && Objects.equals(ownsSelectors, that.ownsSelectors) && workers == that.workers
                && resync.equals(that.resync) && syncTimeout.equals(that.syncTimeout) && shutdownTimeout.equals(that.shutdownTimeout)
                && Objects.equals(reconcileTimeout, that.reconcileTimeout) && statusEvents == that.statusEvents
                && queuePolicy.equals(that.queuePolicy) && owns.equals(that.owns)
                && watches.equals(that.watches) && Objects.equals(finalizer, that.finalizer) && indexes.equals(that.indexes)
                && transforms.equals(that.transforms) && polls.equals(that.polls) && managedConditions.equals(that.managedConditions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, kind, namespace, namespaces, labelSelector, ownsSelectors, workers, resync, syncTimeout, shutdownTimeout, reconcileTimeout,
                statusEvents, queuePolicy, owns, watches, finalizer, indexes, transforms, polls, managedConditions);
    }

    @Override
    public String toString() {
        return "ControllerDefinition[name=" + name + ", kind=" + kind.getSimpleName() + ", namespace=" + namespace + (namespaces == null ? "" : ", namespaces=" + namespaces) + ", labelSelector="
                + labelSelector + ", ownsSelectors=" + ownsSelectors + ", workers=" + workers + ", resync=" + resync + ", syncTimeout=" + syncTimeout + ", shutdownTimeout="
                + shutdownTimeout + ", reconcileTimeout=" + reconcileTimeout + ", statusEvents=" + statusEvents + ", queuePolicy=" + queuePolicy + ", owns=" + owns
                + ", watches=" + watches + ", finalizer=" + finalizer + ", indexes=" + indexes + ", transforms=" + transforms
                + ", managedConditions=" + managedConditions + "]";
    }

    /**
     * The parts of a definition. Defaults, those of {@code @Controller}: the operator's namespace,
     * no label selector, no selector of the owned kinds, 16 workers, a resync every 300 s, 30 s to sync, 10 s to drain, no bound on
     * a pass, status-only updates ignored, nothing owned or watched, no finalizer, no index, no
     * transform, no managed condition. Not validated here: {@link ControllerOptions} checks what a bean declares.
     */
    public static final class Builder {
        private final String name;
        private final Class<? extends KubernetesObject> kind;
        private String namespace = "";
        private java.util.Set<String> namespaces;
        private String labelSelector;
        private dev.mooring.engine.kube.Selectors ownsSelectors = dev.mooring.engine.kube.Selectors.NONE;
        private int workers = 16;
        private Duration resync = Duration.ofSeconds(300);
        private Duration syncTimeout = Duration.ofSeconds(30);
        private Duration shutdownTimeout = Duration.ofSeconds(10);
        private Duration reconcileTimeout;
        private boolean statusEvents;
        private QueuePolicy queuePolicy = QueuePolicy.DEFAULTS;
        private List<Class<? extends KubernetesObject>> owns = List.of();
        private List<WatchMapper> watches = List.of();
        private String finalizer;
        private List<CacheIndex> indexes = List.of();
        private List<ObjectTransform> transforms = List.of();
        private List<Poller> polls = List.of();
        private java.util.Set<String> managedConditions = java.util.Set.of();

        private Builder(String name, Class<? extends KubernetesObject> kind) {
            this.name = Objects.requireNonNull(name, "name");
            this.kind = Objects.requireNonNull(kind, "kind");
        }

        /** The namespace to watch: empty for the operator's namespace, null for all namespaces. */
        public Builder namespace(String namespace) {
            this.namespace = namespace;
            return this;
        }

        /** The set of namespaces to watch (then {@link #namespace} is not used), or null for one namespace or all. */
        public Builder namespaces(java.util.Set<String> namespaces) {
            this.namespaces = namespaces;
            return this;
        }

        /** The bean's {@code @Poll} methods; none by default. */
        public Builder polls(List<Poller> polls) {
            this.polls = Objects.requireNonNull(polls, "polls");
            return this;
        }

        /** How the queue retries and paces passes; {@link QueuePolicy#DEFAULTS} by default. */
        public Builder queuePolicy(QueuePolicy queuePolicy) {
            this.queuePolicy = Objects.requireNonNull(queuePolicy, "queuePolicy");
            return this;
        }

        /** What limits the caches of the owned kinds; {@code Selectors.NONE} for every child in scope. */
        public Builder ownsSelectors(dev.mooring.engine.kube.Selectors ownsSelectors) {
            this.ownsSelectors = Objects.requireNonNull(ownsSelectors, "ownsSelectors");
            return this;
        }

        /** A label selector, or null for none. */
        public Builder labelSelector(String labelSelector) {
            this.labelSelector = labelSelector;
            return this;
        }

        public Builder workers(int workers) {
            this.workers = workers;
            return this;
        }

        public Builder resync(Duration resync) {
            this.resync = Objects.requireNonNull(resync, "resync");
            return this;
        }

        public Builder syncTimeout(Duration syncTimeout) {
            this.syncTimeout = Objects.requireNonNull(syncTimeout, "syncTimeout");
            return this;
        }

        public Builder shutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
            return this;
        }

        /** The bound of one pass, or null for none. */
        public Builder reconcileTimeout(Duration reconcileTimeout) {
            this.reconcileTimeout = reconcileTimeout;
            return this;
        }

        public Builder statusEvents(boolean statusEvents) {
            this.statusEvents = statusEvents;
            return this;
        }

        public Builder owns(List<Class<? extends KubernetesObject>> owns) {
            this.owns = List.copyOf(owns);
            return this;
        }

        public Builder watches(List<WatchMapper> watches) {
            this.watches = List.copyOf(watches);
            return this;
        }

        /** The finalizer of a reconciler that implements {@code Cleanup}, or null. */
        public Builder finalizer(String finalizer) {
            this.finalizer = finalizer;
            return this;
        }

        public Builder indexes(List<CacheIndex> indexes) {
            this.indexes = List.copyOf(indexes);
            return this;
        }

        public Builder transforms(List<ObjectTransform> transforms) {
            this.transforms = List.copyOf(transforms);
            return this;
        }

        /** The condition types the controller's stages manage (a {@code Staged} reconciler's plan says which). */
        public Builder managedConditions(java.util.Set<String> managedConditions) {
            this.managedConditions = java.util.Set.copyOf(managedConditions);
            return this;
        }

        public ControllerDefinition build() {
            return new ControllerDefinition(this);
        }
    }
}
