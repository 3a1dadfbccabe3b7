package dev.mooring.api.client;

import io.kubernetes.client.common.KubernetesObject;
import jakarta.json.JsonArray;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A live (uncached) client for any kind that the API server serves, typed with client-java
 * models. Every method performs one request unless its documentation says otherwise (a list's
 * later pages, {@link #save}, {@link #scale}, a watch's reconnects), and throws
 * {@link KubernetesException} (never a checked exception) when it fails. Arguments that cannot
 * make a valid request (an object without a name where one is needed, a status write to a kind
 * without a status subresource) are refused with an {@link IllegalArgumentException} before any
 * request. Every request carries the User-Agent {@code Mooring/<version>}.
 *
 * <p>A client has a default namespace (in a reconcile pass: the namespace of the object being
 * reconciled); passing a {@code null} namespace, or an object without {@code metadata.namespace},
 * uses it.
 *
 * <p>The kind of a model class is resolved through the API server's discovery the first time it
 * is used; a kind the server does not serve fails with a {@link KubernetesException} of code 404
 * that names it.
 */
public interface ResourceClient {

    /**
     * Read one object.
     *
     * @param type the model class, such as {@code V1ConfigMap.class}
     * @param namespace the namespace, null for the client's default; ignored for cluster-scoped kinds
     * @param name the object's name
     * @return the object, or empty when it does not exist
     * @throws IllegalArgumentException if the name or namespace is missing or not a valid name
     * @throws KubernetesException for any failure other than 404
     */
    <R extends KubernetesObject> Optional<R> get(Class<R> type, String namespace, String name);

    /**
     * List the objects of a kind, one page now and the others as the iteration reaches them.
     *
     * @param namespace the namespace, null for the client's default; ignored for cluster-scoped
     *     kinds and with {@link ListOptions#allNamespaces()}
     * @throws KubernetesException when the server refuses the first page (a malformed selector: 400)
     */
    <R extends KubernetesObject> ResourceList<R> list(Class<R> type, String namespace, ListOptions options);

    /** {@link #list(Class, String, ListOptions)} of every object of the namespace. */
    default <R extends KubernetesObject> ResourceList<R> list(Class<R> type, String namespace) {
        return list(type, namespace, ListOptions.DEFAULT);
    }

    /**
     * Watch the objects of a kind, on the caller's thread; see {@link ResourceWatch} for the
     * reconnects and what ends it. The first request is sent by the first {@code hasNext}.
     *
     * @param namespace as for {@link #list(Class, String, ListOptions)}
     */
    <R extends KubernetesObject> ResourceWatch<R> watch(Class<R> type, String namespace, WatchOptions options);

    /**
     * Create an object in the namespace of its {@code metadata.namespace} (the client's default
     * namespace when it has none).
     *
     * @return the object as stored by the server
     * @throws KubernetesException with code 409 when it already exists, or any other failure
     */
    default <R extends KubernetesObject> R create(R object) {
        return create(object, WriteOptions.DEFAULT);
    }

    /**
     * {@link #create(KubernetesObject)}, or its dry run. {@code apiVersion} and {@code kind}
     * are filled from the resolved kind when the object has none.
     */
    <R extends KubernetesObject> R create(R object, WriteOptions options);

    /**
     * Replace the stored object with {@code object} (PUT), only if it is still at the
     * object's {@code metadata.resourceVersion}: a write based on a stale read fails with a
     * conflict. Without a resourceVersion the server replaces whatever is stored.
     *
     * @return the object as stored
     * @throws IllegalArgumentException if the object has no name
     * @throws KubernetesException with {@link KubernetesException#isConflict()} when the object
     *     changed since it was read; 404 when it does not exist
     */
    default <R extends KubernetesObject> R update(R object) {
        return update(object, WriteOptions.DEFAULT);
    }

    /** {@link #update(KubernetesObject)}, or its dry run. */
    <R extends KubernetesObject> R update(R object, WriteOptions options);

    /**
     * Replace the status of the stored object with the status of {@code object} (PUT on the
     * status subresource), guarded by its resourceVersion as {@link #update} is.
     *
     * @throws IllegalArgumentException if the object has no name, or its kind has no status
     *     subresource (as discovery says)
     */
    default <R extends KubernetesObject> R updateStatus(R object) {
        return updateStatus(object, WriteOptions.DEFAULT);
    }

    /** {@link #updateStatus(KubernetesObject)}, or its dry run. */
    <R extends KubernetesObject> R updateStatus(R object, WriteOptions options);

    /**
     * Create or replace: an object without a name is created (the server may generate one
     * from {@code generateName}); one with a resourceVersion is updated with it (a stale one
     * conflicts); otherwise the stored object is read and {@code object} replaces it at the
     * stored resourceVersion, or is created when there is none. {@code object} itself is not
     * changed. One or two requests.
     *
     * @return the object as stored
     */
    default <R extends KubernetesObject> R save(R object) {
        return save(object, WriteOptions.DEFAULT);
    }

    /** {@link #save(KubernetesObject)}, or its dry run. */
    <R extends KubernetesObject> R save(R object, WriteOptions options);

    /**
     * Apply an RFC 6902 JSON Patch to the object that {@code target} names (its kind, namespace
     * and name). Build guarded patches with {@code Patches.diff}, whose {@code test} operations
     * make a stale write fail with a conflict ({@link KubernetesException#isConflict()}).
     *
     * @param target the object to patch, identified by its kind, namespace and name
     * @param operations the JSON Patch operations; must not be empty
     * @return the object as stored by the server after the patch
     * @throws IllegalArgumentException if {@code operations} is empty
     * @throws KubernetesException when the server rejects the patch
     */
    default <R extends KubernetesObject> R patch(R target, JsonArray operations) {
        return patch(target, operations, PatchOptions.DEFAULT);
    }

    /**
     * {@link #patch(KubernetesObject, JsonArray)} with options: on the status subresource, or as
     * a dry run (the answer shows what would be stored).
     */
    <R extends KubernetesObject> R patch(R target, JsonArray operations, PatchOptions options);

    /**
     * A narrow guarded write based on a live read: the object is read from the server (not the
     * cache), {@code change} edits a copy of it, and the difference is sent as a JSON Patch with
     * {@code test} operations on UID and resourceVersion. When nothing changed no request is
     * made. {@code change} must only edit the copy: no I/O, no external side effects (it may
     * run again on a retry).
     *
     * @param resource a fetched object (it must have {@code metadata.name} and {@code metadata.uid})
     * @return the object as stored after the write, or the live object when nothing changed
     * @throws IllegalArgumentException if {@code resource} has no name or UID, or if the change
     *     touches name, namespace, kind, UID or resourceVersion
     * @throws KubernetesException with code 409 if the object was deleted and created again
     *     under the same name (checked before {@code change} runs); with
     *     {@link KubernetesException#isConflict()} if it changed between the read and the write;
     *     404 if it is gone
     */
    <R extends KubernetesObject> R mutate(R resource, Consumer<R> change);

    /**
     * Like {@link #mutate}, through the status subresource.
     *
     * @throws IllegalArgumentException also if {@code change} touches anything outside {@code status}
     */
    <R extends KubernetesObject> R mutateStatus(R resource, Consumer<R> change);

    /**
     * Make sure {@code finalizer} is on the object, with a guarded write based on a live read.
     * Call it before creating anything outside the cluster that the object owns. Other
     * finalizers are kept; nothing is written when it is already there.
     *
     * @param finalizer a qualified name such as {@code example.com/cleanup}
     * @return the live object, carrying the finalizer
     * @throws IllegalArgumentException if the name is not qualified
     * @throws dev.mooring.api.TerminalException if the object's deletion has begun and the
     *     finalizer is missing (it cannot be added any more)
     * @throws KubernetesException as {@link #mutate} does
     */
    <R extends KubernetesObject> R ensureFinalizer(R resource, String finalizer);

    /**
     * Remove {@code finalizer} (every occurrence of it, nothing else), with a guarded write based
     * on a live read; nothing is written when it is absent. Call it only after the cleanup it
     * guards has succeeded.
     *
     * @return the live object after the write
     */
    <R extends KubernetesObject> R removeFinalizer(R resource, String finalizer);

    /**
     * Delete the object, only if it still has the UID and resourceVersion of {@code target}
     * (delete preconditions): an object changed or replaced since it was read is not deleted.
     *
     * @return true when deleted (or its deletion started), false when it was already gone
     * @throws KubernetesException with code 409 when the preconditions do not hold
     */
    <R extends KubernetesObject> boolean delete(R target);

    /**
     * Delete the object of {@code type} named {@code name}, with {@code options}: propagation,
     * grace period, preconditions (UID, resourceVersion, both or neither), dry run.
     *
     * @return true when deleted (or its deletion started), false when it was already gone
     * @throws IllegalArgumentException if the name is missing or not valid
     * @throws KubernetesException with code 409 when a precondition does not hold
     */
    <R extends KubernetesObject> boolean delete(Class<R> type, String namespace, String name, DeleteOptions options);

    /**
     * {@link #delete(Class, String, String, DeleteOptions)} of the object {@code target} names
     * (its kind, namespace and name); only the preconditions of {@code options} apply, so
     * {@code DeleteOptions.DEFAULT.withUid(target.getMetadata().getUid())} deletes it whatever
     * its resourceVersion, as long as it was not replaced.
     */
    @SuppressWarnings("unchecked")
    default <R extends KubernetesObject> boolean delete(R target, DeleteOptions options) {
        return delete((Class<R>) target.getClass(), target.getMetadata() == null ? null : target.getMetadata().getNamespace(),
                target.getMetadata() == null ? null : target.getMetadata().getName(), options);
    }

    /**
     * Scale the object through its {@code scale} subresource (a merge patch of
     * {@code spec.replicas}), then read it again.
     *
     * @return the object as stored after the change
     * @throws IllegalArgumentException if the object has no name, its kind has no scale
     *     subresource, or {@code replicas} is negative
     * @throws KubernetesException with code 404 when it does not exist
     */
    <R extends KubernetesObject> R scale(R object, int replicas);

    /**
     * Wait until one of {@code conditions} holds for the object {@code object} names, on the
     * caller's thread, by watching that one object (a field selector on its name). The watch
     * starts after the object's resourceVersion when it has one (so only later changes count;
     * pass an object without one to test its current state too), from its current state
     * otherwise. At each change the conditions are tested in the map's order and the first
     * that holds ends the wait; a deletion is a change like any other
     * ({@link WaitCondition#deleted()}).
     *
     * @param conditions named conditions, at least one, in the order they are tested
     * @return the name of the condition that held
     * @throws IllegalArgumentException if the object has no name or there is no condition
     * @throws WaitTimeoutException naming the object and the conditions when {@code timeout}
     *     passes first (at once when it is zero or negative)
     * @throws KubernetesException when the watch fails in a way no retry mends
     */
    <R extends KubernetesObject> String waitFor(R object, Map<String, WaitCondition<? super R>> conditions, Duration timeout);

    /** {@link #waitFor(KubernetesObject, Map, Duration)} with one condition. */
    default <R extends KubernetesObject> void waitFor(R object, WaitCondition<? super R> condition, Duration timeout) {
        waitFor(object, Map.of("condition", condition), timeout);
    }

    /**
     * Server-side apply: the server merges {@code object} into the stored object (creating it
     * if needed) and records {@code fieldManager} as the owner of the fields it sets. Conflicts
     * with other managers are forced (the applier takes ownership), as controllers do. Empty
     * collections of the model count as not specified; server-set metadata (uid,
     * resourceVersion, creationTimestamp, managedFields) and status are not sent.
     *
     * @param fieldManager a stable name for this writer, such as {@code mooring-<controller>}
     * @return the object as stored
     * @throws KubernetesException when the server rejects the apply
     */
    default <R extends KubernetesObject> R apply(R object, String fieldManager) {
        return apply(object, fieldManager, WriteOptions.DEFAULT);
    }

    /** {@link #apply(KubernetesObject, String)}, or its dry run. */
    <R extends KubernetesObject> R apply(R object, String fieldManager, WriteOptions options);
}
