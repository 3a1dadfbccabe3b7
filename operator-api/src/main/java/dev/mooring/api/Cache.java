package dev.mooring.api;

import io.kubernetes.client.common.KubernetesObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads of one watched kind from the controller's local cache: no request to the API server.
 *
 * <p>Results are independent copies: changing them never changes the cache. The cache covers
 * the watched scope only and is eventually consistent (it may lag the server by the watch
 * delay, including right after your own writes).
 *
 * @param <T> the kind
 */
public interface Cache<T extends KubernetesObject> {

    /**
     * The index every cache keeps: the UID of an object's controller owner reference. {@code
     * indexed(CONTROLLER_INDEX, owner.getMetadata().getUid())} lists the objects that owner
     * controls ({@link Context#owned} reads it).
     */
    String CONTROLLER_INDEX = "mooring.dev/controller-uid";

    /**
     * The cached object with this namespace and name.
     *
     * @param namespace the namespace, ignored (may be null) for a cluster-scoped kind
     * @throws IllegalArgumentException if the kind is namespaced and {@code namespace} is blank,
     *     or outside the watched scope (a controller watching one namespace caches only that one)
     */
    Optional<T> get(String namespace, String name);

    /**
     * Every cached object in {@code namespace} (every object for a cluster-scoped kind).
     *
     * @throws IllegalArgumentException if {@code namespace} is outside the watched scope
     */
    List<T> list(String namespace);

    /**
     * The cached objects in {@code namespace} whose labels include every entry of {@code labels}
     * (an AND of exact matches).
     *
     * @throws IllegalArgumentException if {@code namespace} is outside the watched scope
     */
    List<T> list(String namespace, Map<String, String> labels);

    /** Every cached object in the watched scope. */
    List<T> listAll();

    /**
     * The cached objects found under {@code value} in the index {@code index}, in every cached
     * namespace: {@link #CONTROLLER_INDEX} or an index a controller declared with {@link Index}
     * for this kind. A lookup, not a scan.
     *
     * @throws IllegalArgumentException if this cache has no index of that name
     */
    List<T> indexed(String index, String value);
}
