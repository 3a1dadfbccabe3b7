package dev.mooring.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a CDI bean implementing {@link Reconciler} as a controller and carries its options.
 *
 * <p>Mooring finds every such bean when the application deploys and runs one controller for it.
 * Invalid options fail the deployment with a message that names the controller and the option;
 * they are never discovered at the first reconcile.
 *
 * <p>Every option except {@link #name()}, {@link #owns()} and {@link #finalizer()} can be overridden per controller with
 * the MicroProfile Config property {@code mooring.controller.<name>.<option>}, the option written
 * in kebab case: {@code mooring.controller.configmap-mirror.workers=4},
 * {@code MOORING_CONTROLLER_CONFIGMAP_MIRROR_WORKERS=4} in the environment. A property beats the
 * annotation. Durations are written {@code 30s}, {@code 500ms}, {@code 5m}, {@code 1h}, a plain
 * number of seconds, or ISO-8601 ({@code PT30S}).
 *
 * <pre>{@code
 * @ApplicationScoped
 * @Controller(name = "configmap-mirror", allNamespaces = true, labelSelector = "example.com/mirror=true")
 * public class ConfigMapMirror implements Reconciler<V1ConfigMap> { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Controller {

    /**
     * The controller's name: unique within the deployment, at most 118 characters; it labels
     * logs and metrics. Defaults to the primary kind in lower case (for example {@code configmap}).
     */
    String name() default "";

    /**
     * The single namespace to watch. Defaults to the operator's namespace
     * ({@code mooring.namespace}, itself defaulting to {@code default}) unless
     * {@link #allNamespaces()} is set. Ignored for cluster-scoped kinds.
     */
    String namespace() default "";

    /** Watch every namespace. Must not be combined with {@link #namespace()}. Defaults to false. */
    boolean allNamespaces() default false;

    /**
     * A set of namespaces to watch, instead of one or all. The set can change while the
     * operator runs: the property {@code mooring.controller.<name>.namespaces} (a comma-separated
     * list, read again every {@code mooring.namespaces.poll-interval}) replaces it, and the
     * informers of a namespace that leaves the set stop, those of one that joins start, without a
     * restart. The controller's informers are its own (not shared with other controllers). Must
     * not be combined with {@link #namespace()} or {@link #allNamespaces()}. Defaults to none.
     */
    String[] namespaces() default {};

    /**
     * A Kubernetes label selector (for example {@code app=web,tier!=cache}) limiting the watched
     * objects. Defaults to none: every object of the kind in scope.
     */
    String labelSelector() default "";

    /**
     * How many objects may be reconciled concurrently; at least 1. Defaults to 16: a reconciler
     * that waits on I/O (the API server, a cloud API) drains a backlog, after a restart or a
     * resync, about 16 times as fast as with one worker; one key is still never reconciled twice
     * at once. Set 1 for a reconciler that must see one object at a time.
     */
    int workers() default 16;

    /**
     * Child kinds whose changes reconcile their controlling owner: a change of a child with a
     * controller owner reference to a cached primary (same group and kind, same UID) enqueues
     * that primary. This is a watch of each kind with the owner mapper (see {@link Watch}).
     * Children are watched in the controller's scope, without its label selector: limit them with
     * {@link #ownsLabelSelector()} and {@link #ownsFieldSelector()}.
     */
    Class<? extends io.kubernetes.client.common.KubernetesObject>[] owns() default {};

    /**
     * A label selector limiting the cached children of every {@link #owns()} kind (for example
     * {@code app.kubernetes.io/managed-by=webpage-operator}): only the children that match are
     * listed, watched and cached, so an operator for all namespaces does not cache every object
     * of its children's kinds. Every child {@code Context.ensure}, {@code apply} or
     * {@code createOnce} writes must match it (else the pass fails terminally naming the child and
     * the selector: an unmatched child would never be cached). Defaults to none.
     */
    String ownsLabelSelector() default "";

    /**
     * A field selector limiting the cached children of every {@link #owns()} kind, such as
     * {@code metadata.name!=kube-root-ca.crt}; which fields a kind supports the API server decides
     * (every kind has {@code metadata.name} and {@code metadata.namespace}). Defaults to none.
     */
    String ownsFieldSelector() default "";

    /**
     * How often every cached object is reconciled again even without a change, to repair
     * drift. Defaults to {@code 300s}.
     */
    String resync() default "300s";

    /**
     * How long start-up (discovery and the initial lists of every watched kind) may take before
     * the controller fails. Defaults to {@code 30s}.
     */
    String syncTimeout() default "30s";

    /**
     * On stop, how long accepted work may drain before running reconciles are interrupted.
     * Defaults to {@code 10s}.
     */
    String shutdownTimeout() default "10s";

    /**
     * The longest a reconcile pass may run; a pass that takes longer is interrupted, counted as
     * cancelled and retried with backoff. Defaults to none (empty).
     */
    String reconcileTimeout() default "";

    /**
     * The delay before the first retry of a failed pass, doubling (&plusmn;10 %) on each further
     * failure up to {@link #retryMaxDelay()}. Defaults to the deployment's
     * {@code mooring.retry.base-delay} (1 s).
     */
    String retryBaseDelay() default "";

    /** The longest delay between retries. Defaults to the deployment's {@code mooring.retry.max-delay} (60 s). */
    String retryMaxDelay() default "";

    /**
     * How many times a failing object is retried; when that many retries failed too, the
     * controller gives it up (a Warning Event {@code ReconcileGaveUp} on the object, a log line,
     * the metric {@code mooring_reconcile_given_up_total}) until the object changes: a resync does
     * not bring it back, a change of its resourceVersion does. Defaults to 0: retried for ever.
     */
    int retryLimit() default 0;

    /**
     * At most this many passes a second, retries and fresh changes alike (a token bucket
     * {@link #passBurst()} deep, full at first): a worker waits for its turn. Defaults to 0: no limit.
     */
    double maxPassRate() default 0;

    /** How many passes may run at once after a quiet spell, with {@link #maxPassRate()}. Defaults to 0: one second's worth. */
    int passBurst() default 0;

    /**
     * Whether an update of the primary that changes only its status (or only
     * {@code metadata.resourceVersion} / {@code managedFields}) triggers a reconcile. Defaults
     * to false, so that a controller's own status writes do not wake it up again.
     */
    boolean statusEvents() default false;

    /**
     * The finalizer of a controller whose reconciler implements {@link Cleanup}, a qualified
     * name such as {@code example.com/cleanup}; required then, and not allowed otherwise.
     */
    String finalizer() default "";
}
