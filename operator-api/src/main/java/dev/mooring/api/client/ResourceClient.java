package dev.mooring.api.client;

import io.kubernetes.client.common.KubernetesObject;
import jakarta.json.JsonArray;
import java.util.Optional;

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
    <R extends KubernetesObject> R patch(R target, JsonArray operations);
}
