package dev.mooring.api;

import io.kubernetes.client.common.KubernetesObject;
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
 * <p>The dependency is watched in the controller's scope, without its label selector; limit it
 * with {@link #labelSelector()} and {@link #fieldSelector()}.
 *
 * <p><b>Metadata only.</b> For a kind that the controller only maps or counts, {@link #metadataOf}
 * names the kind and the method takes its metadata, a {@link PartialObjectMetadata}: the engine
 * lists and watches that kind as {@code PartialObjectMetadata} (the API server sends no spec,
 * status or data), and caches only that, as controller-runtime's metadata-only watches do.
 *
 * <pre>{@code
 * @Watch(metadataOf = V1Secret.class)
 * Set<ObjectKey> appsUsing(PartialObjectMetadata secret) {
 *     return Set.of(ObjectKey.of(secret.getMetadata().getNamespace(), secret.getMetadata().getLabels().get("app")));
 * }
 * }</pre>
 *
 * <p>The argument's {@code apiVersion} and {@code kind} are those of the watched kind ({@code v1},
 * {@code Secret}), not {@code PartialObjectMetadata}. The reconciler reads that cache with
 * {@link Context#cachedMetadata}; {@link Context#cached} of the kind fails unless the controller
 * also watches it whole (as its primary, owned or another {@code @Watch} kind), and an
 * {@link Index} or a {@link CacheTransform} applies only to a kind watched whole. The generated
 * RBAC grants {@code get}, {@code list} and {@code watch} on the kind, as for a whole watch. A
 * method with {@code metadataOf} whose parameter is not {@code PartialObjectMetadata}, or
 * without it whose parameter is, fails the deployment naming the method.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Watch {

    /**
     * The kind to watch as metadata only; the default ({@code KubernetesObject}) watches the
     * method's parameter kind whole.
     */
    Class<? extends KubernetesObject> metadataOf() default KubernetesObject.class;

    /**
     * A label selector limiting which objects of the watched kind are listed, watched and cached
     * (for example {@code app=web}); defaults to none. A selector that does not parse fails the
     * deployment naming the method.
     */
    String labelSelector() default "";

    /**
     * A field selector limiting which objects of the watched kind are listed, watched and cached
     * (for example {@code type=kubernetes.io/tls} for Secrets); which fields a kind supports the
     * API server decides. Defaults to none.
     */
    String fieldSelector() default "";
}
