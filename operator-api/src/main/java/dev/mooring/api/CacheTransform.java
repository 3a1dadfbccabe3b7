package dev.mooring.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a {@link Controller} bean that shapes what the controller's cache keeps of a
 * kind it watches (as controller-runtime's cache transforms): the method takes each object as
 * listed or watched and returns what to cache, typically the same object with the fields the
 * reconciler never reads set to null. With 100,000 objects, what is dropped is dropped 100,000
 * times.
 *
 * <pre>{@code
 * @CacheTransform
 * V1Pod onlyWhatIsRead(V1Pod pod) {
 *     pod.setSpec(null);                                   // the reconciler reads labels and status
 *     pod.getMetadata().setAnnotations(null);
 *     return pod;
 * }
 * }</pre>
 *
 * <p>The method takes one client-java model parameter, a kind the controller watches (its primary
 * kind, a kind it {@link Controller#owns() owns} or a {@link Watch} kind), and returns that type;
 * at most one per kind and controller. It is called on the informer's thread for every object
 * the informer receives, before it is cached or any mapper, predicate or index sees it: keep it
 * fast and free of I/O. It may change its argument and return it. It must keep the object's
 * name, namespace, uid and resourceVersion, and should keep what the engine reads from metadata
 * (labels for selectors, owner references for {@link Controller#owns()}, finalizers, deletion
 * timestamp, generation).
 *
 * <p>What is guaranteed: every object of the kind that this controller's reconciler, mappers and
 * {@link Context#cached} reads receive is the transformed one; a kind with a transform gets an
 * informer of its own, not shared with another controller's (so another controller still sees
 * whole objects, at the price of a second watch and cache of that kind). What is thrown: a wrong
 * signature, a kind the controller does not watch or two transforms of one kind fail the
 * deployment, naming the method; a transform that throws, returns null or changes one of the four
 * identity fields fails the controller, naming the method and the object.
 *
 * <p>A reconciler that replaces a shaped object ({@code client().update(...)}) would write the
 * dropped fields away: patch what it changes instead, or read the whole object with
 * {@code client().get(...)} first.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface CacheTransform {
}
