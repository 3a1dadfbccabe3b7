package dev.mooring.api.admission;

import dev.mooring.api.Cache;
import dev.mooring.api.client.ResourceClient;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Optional;

/**
 * One admission request, typed: snapshots of the object and the old object, and what the API
 * server says about the request. The snapshots are copies made for this call: editing them has
 * no effect unless a {@link Mutating} method returns the edited object.
 *
 * <p>Admission callbacks must only read. {@link #cached(Class)} reads this replica's caches
 * (declared with {@link AdmissionCache}; they may lag the API server), {@link #client()} reads
 * live. Writes through the client would happen even when the request is a dry run or is
 * rejected later by another webhook.
 *
 * @param <T> the kind in the request: the admitted object, or for a subresource the kind the
 *     subresource carries (such as {@code V1Scale} for {@code deployments/scale})
 */
public interface AdmissionRequest<T extends KubernetesObject> {

    /** The request's UID, echoed in the response. */
    String uid();

    /** The operation. */
    Operation operation();

    /**
     * The object of a CREATE, UPDATE or CONNECT.
     *
     * @throws IllegalStateException for a DELETE, which has only {@link #oldObject()}
     */
    T object();

    /** The object before the change: present for UPDATE and DELETE, empty for CREATE and CONNECT. */
    Optional<T> oldObject();

    /** The object's name; may be empty for a CREATE with {@code generateName}. */
    String name();

    /** The namespace; empty for cluster-scoped kinds. */
    String namespace();

    /** The subresource, such as {@code scale}; empty for the main resource. */
    String subresource();

    /** True when the request is a dry run: nothing will be stored, whatever the answer. */
    boolean dryRun();

    /** The requesting user, as authenticated by the API server. */
    UserInfo userInfo();

    /**
     * Adds a warning to the response. The API server shows warnings to the client (kubectl
     * prints them), whether the request is allowed or denied.
     *
     * @throws IllegalArgumentException if the warning is blank
     */
    void warn(String warning);

    /**
     * This replica's cached reads of a kind declared by {@link AdmissionCache} on the bean. The
     * cache is synced before admission reports ready; it may still lag the API server, so read
     * live through {@link #client()} when a miss matters.
     *
     * @throws IllegalArgumentException if the bean did not declare the kind
     */
    <K extends KubernetesObject> Cache<K> cached(Class<K> kind);

    /** A live client on the operator's connection, for reads. */
    ResourceClient client();
}
