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
     * The cached object with this namespace and name.
     *
     * @param namespace the namespace, ignored (may be null) for a cluster-scoped kind
     */
    Optional<T> get(String namespace, String name);

    /** Every cached object in {@code namespace} (every object for a cluster-scoped kind). */
    List<T> list(String namespace);

    /**
     * The cached objects in {@code namespace} whose labels include every entry of {@code labels}
     * (an AND of exact matches).
     */
    List<T> list(String namespace, Map<String, String> labels);

    /** Every cached object in the watched scope. */
    List<T> listAll();
}
