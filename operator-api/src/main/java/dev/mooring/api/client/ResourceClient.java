package dev.mooring.api.client;

import io.kubernetes.client.common.KubernetesObject;
import jakarta.json.JsonArray;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A live (uncached) client for any kind that the API server serves, typed with client-java
 * models. Every method performs exactly one request and throws {@link KubernetesException}
 * (never a checked exception) when it fails.
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
     * @throws KubernetesException for any failure other than 404
     */
    <R extends KubernetesObject> Optional<R> get(Class<R> type, String namespace, String name);

    /**
     * Create an object in the namespace of its {@code metadata.namespace} (the client's default
     * namespace when it has none).
     *
     * @return the object as stored by the server
     * @throws KubernetesException with code 409 when it already exists, or any other failure
     */
    <R extends KubernetesObject> R create(R object);

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
    <R extends KubernetesObject> R apply(R object, String fieldManager);
}
