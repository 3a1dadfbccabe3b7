package dev.mooring.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class implementing {@code KubernetesObject} as the model of a custom resource, so that
 * Mooring can watch, write and admit it. At run time the plural and the scope come from the API
 * server's discovery (the CRD must be installed); offline (webhook configurations, manifests)
 * they come from {@link #plural()} and {@link #clusterScoped()}. The CRD itself may belong to
 * someone else: the annotation does not install or own it.
 *
 * <pre>{@code
 * @CustomResource(group = "example.com", version = "v1")
 * public class Widget implements KubernetesObject { ... apiVersion, kind, metadata, spec, status ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface CustomResource {

    /** The API group, such as {@code example.com}. */
    String group();

    /** The served version, such as {@code v1}. */
    String version();

    /** The kind; defaults to the class's simple name. */
    String kind() default "";

    /**
     * The plural resource name, such as {@code widgets}; by default the kind in lower case with
     * the English plural ending ({@code -s}, {@code -es} after s/x/z/ch/sh, {@code -ies} after a
     * consonant and y), as Kubernetes tooling derives it. Set it for irregular plurals.
     */
    String plural() default "";

    /** True for a cluster-scoped kind; namespaced by default. */
    boolean clusterScoped() default false;

    /** The singular resource name for the generated CRD; by default the kind in lower case. */
    String singular() default "";

    /** Short names for the generated CRD ({@code kubectl get wg}). */
    String[] shortNames() default {};

    /** Categories for the generated CRD ({@code kubectl get all} lists the kinds of category {@code all}). */
    String[] categories() default {};

    /**
     * The version the API server stores, when several classes of one kind give several versions
     * of one CRD: exactly one of them must say so (a single version is always the storage version).
     */
    boolean storage() default false;
}
