package dev.mooring.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A permission the operator needs for what its code does through {@code client()}, beyond what
 * Mooring infers from the controllers and admission beans (their kinds, owned and watched kinds,
 * caches, status, finalizers, Events, Leases). Put it on the bean that makes the calls; the
 * generated RBAC grants it to the operator's ServiceAccount.
 *
 * <pre>{@code @RbacRule(resources = "namespaces", verbs = "get", cluster = true)}</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(RbacRule.List.class)
public @interface RbacRule {

    /** API groups; {@code ""} is the core group. */
    String[] groups() default {""};

    /** Resources (plurals), with subresources written {@code pods/log}. */
    String[] resources();

    /** Verbs, such as {@code get}, {@code list}, {@code create}. */
    String[] verbs();

    /** Restricts the rule to these names, where Kubernetes permits it. */
    String[] resourceNames() default {};

    /** The namespace of a namespaced rule; empty for the operator's namespace. */
    String namespace() default "";

    /** A cluster-wide rule (ClusterRole): for cluster-scoped resources, or a namespaced resource in every namespace. */
    boolean cluster() default false;

    /** Several rules. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface List {
        RbacRule[] value();
    }
}
