package dev.mooring.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a {@link Controller} bean as a mapper for a dependency: whenever an object
 * of the method's parameter kind changes, the keys it returns are reconciled.
 *
 * <pre>{@code
 * @Watch
 * Set<ObjectKey> deploymentsUsing(V1ConfigMap changed) {
 *     return ...; // the keys of the primaries whose reconcile reads this ConfigMap
 * }
 * }</pre>
 *
 * <p>The method takes one client-java model parameter (the watched kind) and returns a
 * {@code Collection<ObjectKey>}. It may take a second parameter, {@code Cache<P>} of the
 * controller's primary kind {@code P}, to find the primaries that refer to the changed object
 * (their selectors, their references): a scan of that cache or, faster, a lookup in one of its
 * {@link Index indexes}, read-only and without I/O. Until
 * the primaries' initial list is cached it may miss some; they are reconciled once listed anyway. On an update it is called for the old <em>and</em> the new
 * state, and the union is enqueued, so that a reference that was removed still reconciles the
 * primary it pointed to. The argument is a copy. It runs on the informer's thread: keep it fast
 * and free of I/O (use {@link Context#cached} reads in the reconciler instead). A mapper that
 * throws fails the controller; a wrong signature fails the deployment.
 *
 * <p>The dependency is watched in the controller's scope, without its label selector.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Watch {
}
