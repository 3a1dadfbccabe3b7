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
     * A Kubernetes label selector (for example {@code app=web,tier!=cache}) limiting the watched
     * objects. Defaults to none: every object of the kind in scope.
     */
    String labelSelector() default "";

    /** How many objects may be reconciled concurrently; at least 1. Defaults to 1. */
    int workers() default 1;
}
