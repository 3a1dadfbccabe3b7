package dev.mooring.engine;

import dev.mooring.api.Reconciler;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.BeanMethods;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.StagePlan;
import dev.mooring.engine.model.WatchMapper;
import dev.mooring.engine.pass.Pass;
import dev.mooring.engine.pass.RequestScope;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The engine's one composition root: what the container ({@code OperatorManager}), the test kit's
 * {@code MooringExtension} and the integration tests build an {@link OperatorRuntime} with.
 *
 * <pre>{@code
 * OperatorRuntime runtime = Engine.builder(requests, watches)
 *         .controller(definition, bean, stagePlan, watchMethods)
 *         .threads(loops, timers)
 *         .operatorNamespace("operators")
 *         .build();
 * runtime.start();
 * }</pre>
 *
 * Everything but the clients and the threads has a default: no request scope, no observer,
 * {@link OperatorRuntime.Retry#DEFAULT}, the operator namespace {@code default}.
 */
public final class Engine {

    private Engine() {
    }

    /**
     * @param requests the client of reads and writes (with the request timeout)
     * @param watches the client of watches (with the watch's longer read timeout)
     */
    public static Builder builder(KubeHttp requests, KubeHttp watches) {
        return new Builder(requests, watches);
    }

    /** Collects the parts of one runtime; {@link #build()} once. */
    public static final class Builder {

        // read by the OperatorRuntime's constructor
        final KubeHttp requests;
        final KubeHttp watches;
        final List<OperatorRuntime.Entry> entries = new ArrayList<>();
        ExecutorService executor;
        ScheduledExecutorService scheduler;
        RequestScope requestScope = RequestScope.NONE;
        OperatorRuntime.Retry retry = OperatorRuntime.Retry.DEFAULT;
        PassObserver observer = PassObserver.NONE;
        String operatorNamespace = "default";
        java.time.Clock clock = java.time.Clock.systemUTC();
        dev.mooring.engine.replica.ShardCoordinator shards;
        dev.mooring.engine.informer.ReadYourWrites.Settings readYourWrites = dev.mooring.engine.informer.ReadYourWrites.Settings.DEFAULT;

        private Builder(KubeHttp requests, KubeHttp watches) {
            this.requests = Objects.requireNonNull(requests, "requests");
            this.watches = Objects.requireNonNull(watches, "watches");
        }

        /**
         * A controller whose definition is complete (namespace resolved, watches included).
         *
         * @throws IllegalArgumentException if another controller of this engine has its name (it names logs,
         *     metrics and {@code Controllers.enqueue})
         */
        public Builder controller(ControllerDefinition definition, Reconciler<?> reconciler) {
            return controller(new OperatorRuntime.Entry(definition, reconciler));
        }

        /**
         * A controller whose definition is complete, of any bean {@link Pass#of} accepts.
         *
         * @throws IllegalArgumentException if another controller of this engine has its name
         */
        public Builder controller(OperatorRuntime.Entry entry) {
            String name = entry.definition().name();
            for (OperatorRuntime.Entry other : entries) {
                if (other.definition().name().equals(name)) {
                    throw new IllegalArgumentException("Controller name '" + name + "' is used by two controllers;"
                            + " give each its own @Controller(name = ...)");
                }
            }
            entries.add(entry);
            return this;
        }

        /**
         * A controller of an author's bean, whose pass {@link Pass#of} chooses: a {@code Staged}
         * bean (its {@code stages} given), a {@code DesiredStateReconciler} or a plain
         * {@code Reconciler}. Each of the
         * bean's {@code @Watch} methods maps a dependency, each {@code @Index} method indexes the
         * cache of a kind the controller watches, each {@code @CacheTransform} method says what
         * such a cache keeps.
         *
         * @param stages the bean's stage plan, or null for a plain {@code Reconciler}
         * @throws IllegalArgumentException naming the method if a signature is wrong, an index's or a
         *     transform's kind is not watched, or a kind has two transforms
         */
        public Builder controller(ControllerDefinition definition, Object bean, StagePlan stages, BeanMethods methods) {
            List<Method> watchMethods = methods.watches();
            List<WatchMapper> mappers = new ArrayList<>();
            for (Method method : watchMethods) {
                mappers.add(WatchMapper.of(bean, method));
            }
            List<dev.mooring.engine.model.CacheIndex> indexes = new ArrayList<>();
            List<Class<? extends io.kubernetes.client.common.KubernetesObject>> watched =
                    dev.mooring.engine.model.CacheIndex.watchedKinds(definition, watchMethods);
            for (Method method : methods.indexes()) {
                indexes.add(dev.mooring.engine.model.CacheIndex.of(bean, method, watched));
            }
            List<dev.mooring.engine.model.ObjectTransform> transforms = dev.mooring.engine.model.ObjectTransform.of(bean,
                    methods.transforms(), watched, definition.name());
            List<dev.mooring.engine.model.Poller> polls = new ArrayList<>();
            for (Method method : methods.polls()) {
                polls.add(dev.mooring.engine.model.Poller.of(bean, method, definition.kind()));
            }
            return controller(new OperatorRuntime.Entry(definition.toBuilder().watches(mappers).indexes(indexes).transforms(transforms)
                    .polls(polls).managedConditions(stages == null ? java.util.Set.of() : stages.managedConditions()).build(), bean, stages));
        }

        /** The threads: the engine's loops and workers run on {@code executor}, its timers on {@code scheduler}. */
        public Builder threads(ExecutorService executor, ScheduledExecutorService scheduler) {
            this.executor = Objects.requireNonNull(executor, "executor");
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /** Activated around every pass (a CDI request context in the container). */
        public Builder requestScope(RequestScope requestScope) {
            this.requestScope = Objects.requireNonNull(requestScope, "requestScope");
            return this;
        }

        /** The work queues' retry delays, also the cap of the informers' reconnects. */
        public Builder retry(OperatorRuntime.Retry retry) {
            this.retry = Objects.requireNonNull(retry, "retry");
            return this;
        }

        /** Told about every pass and every informer (metrics). */
        public Builder observer(PassObserver observer) {
            this.observer = Objects.requireNonNull(observer, "observer");
            return this;
        }

        /** Where Events about cluster-scoped objects go. */
        public Builder operatorNamespace(String operatorNamespace) {
            this.operatorNamespace = Objects.requireNonNull(operatorNamespace, "operatorNamespace");
            return this;
        }

        /**
         * The clock of every pass's context: the times it writes, such as a condition's
         * {@code lastTransitionTime} (by default the system's, in UTC). The work queues' delays keep
         * the JVM's monotonic time.
         */
        public Builder clock(java.time.Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Share every controller's work with other replicas through {@code shards}: a controller
         * passes only the keys of the shards this replica owns, every write of a pass is checked
         * against its key's shard just before it is sent, and a shard taken queues its cached
         * objects. The caller runs the coordinator (after {@link #build()}, which listens to it).
         */
        public Builder shards(dev.mooring.engine.replica.ShardCoordinator shards) {
            this.shards = Objects.requireNonNull(shards, "shards");
            return this;
        }

        /**
         * Whether, and how long at most, a pass waits before it reads a cache until the cache has
         * delivered the runtime's own earlier writes of what it reads (read-your-writes; by default
         * on, 2 s); with it on, a replica that takes over (leadership or a shard) lists its caches
         * again before it passes what it took.
         */
        public Builder readYourWrites(dev.mooring.engine.informer.ReadYourWrites.Settings settings) {
            this.readYourWrites = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /**
         * The runtime, not started.
         *
         * @throws IllegalStateException if no threads were given
         */
        public OperatorRuntime build() {
            if (executor == null) {
                throw new IllegalStateException("Give the engine its threads with threads(executor, scheduler)");
            }
            return new OperatorRuntime(this);
        }
    }
}
