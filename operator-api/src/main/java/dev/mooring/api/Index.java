package dev.mooring.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a {@link Controller} bean as an index of a watched kind's cache (as
 * controller-runtime's field indexers): the method gives the values an object is found under, and
 * {@link Cache#indexed} returns the cached objects with a value, without scanning the cache.
 *
 * <pre>{@code
 * @Index("configmaps")
 * Set<String> configMapsOf(V1Deployment deployment) {
 *     return ...; // "namespace/name" of every ConfigMap the Deployment refers to
 * }
 *
 * deployments.indexed("configmaps", namespace + "/" + name)  // in a @Watch mapper or a reconcile
 * }</pre>
 *
 * <p>The method takes one client-java model parameter, a kind the controller watches (its primary
 * kind, a kind it {@link Controller#owns() owns} or a {@link Watch} kind), and returns a
 * {@code Collection<String>} (null or empty: the object is under no value). It is called for
 * every state the cache stores, on the informer's thread, with the cached object itself: keep it
 * fast, free of I/O, and do not change its argument. An index whose method throws leaves that
 * object out of it, with a warning naming the method and the object. The index is kept from the
 * first list on; the informers are shared, so an index name is one per kind and scope in the
 * application: two methods declaring the same name for the same kind fail the second controller
 * at start, naming both. A wrong signature or an unwatched kind fails the deployment.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Index {

    /** The index's name, as given to {@link Cache#indexed}, such as {@code spec.nodeName}. */
    String value();
}
