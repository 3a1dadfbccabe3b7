package dev.mooring.api;

import dev.mooring.api.client.ResourceClient;
import io.kubernetes.client.common.KubernetesObject;

/**
 * What a reconciler can use during one pass. A context belongs to one pass: do not store it.
 *
 * @param <T> the controller's primary kind
 */
public interface Context<T extends KubernetesObject> {

    /** The name of the controller running this pass (unique within the deployment). */
    String controllerName();

    /** The key being reconciled. */
    ObjectKey key();

    /**
     * Which attempt at the object's current state this pass is, and whether it is the last before
     * the object is given up (see {@link Attempt}): what {@link Reconciler#failed} needs to say
     * "gave up" in the status. {@link Attempt#FIRST} by default.
     */
    default Attempt attempt() {
        return Attempt.FIRST;
    }

    /**
     * A live (uncached) client for any kind, sharing the operator's connection. Reads go to the
     * API server; writes take effect immediately. The client must not be closed.
     */
    ResourceClient client();

    /**
     * Cached reads of the primary kind or of a kind this controller watches (through
     * {@link Controller#owns()} or a {@link Watch} method). No request is made.
     *
     * @throws IllegalArgumentException if the controller does not watch {@code kind}
     */
    <K extends KubernetesObject> Cache<K> cached(Class<K> kind);

    /**
     * Cached reads of a kind this controller watches as metadata only
     * ({@link Watch#metadataOf}): each object's {@code metadata}, with the kind's
     * {@code apiVersion} and {@code kind}. No request is made.
     *
     * @throws IllegalArgumentException if the controller does not watch the metadata of {@code kind}
     */
    Cache<PartialObjectMetadata> cachedMetadata(Class<? extends KubernetesObject> kind);

    /** Ask for another pass of {@code key} of this controller (see {@link Controllers#enqueue}). */
    void enqueue(ObjectKey key);

    /**
     * Create or update a child of the object being reconciled, owned by it through a controller
     * owner reference (so Kubernetes deletes it with its owner). Name and namespace default to
     * the owner's.
     *
     * <p>A missing child is created. An existing child gets the fields {@code desired} sets,
     * merged in with a guarded JSON Patch: maps are merged, lists and scalars replaced, fields
     * {@code desired} leaves empty or null are left as they are (use {@link
     * dev.mooring.api.client.ResourceClient#mutate} to remove a field). Nothing is written when
     * the child already matches. Declare the child kind with {@link Controller#owns()} so that
     * its changes reconcile the owner.
     *
     * @return the live child
     * @throws TerminalException if a child of that name exists and is not controlled by this
     *     object (another controller's, or nobody's): Mooring never takes it over
     * @throws dev.mooring.api.client.KubernetesException when a write fails (a conflict is
     *     retried from fresh state like any failure)
     */
    <C extends KubernetesObject> C ensure(C desired);

    /**
     * Create a child of the object being reconciled once, and never write it again: for children
     * whose spec the API server keeps immutable (a Job's pod template) or that must not follow
     * later edits of the owner (a run of a task). A missing child is created with a controller
     * owner reference, name and namespace defaulting to the owner's, as {@link #ensure} does; an
     * existing child controlled by this object is returned as it is, however it differs from
     * {@code desired}. To change such a child, create one under another name (and {@link #prune}
     * the old one), or delete it and let a later pass create it again.
     *
     * @return the live child (the one created, or the existing one, unchanged)
     * @throws TerminalException if a child of that name exists and is not controlled by this
     *     object, as for {@link #ensure}
     * @throws dev.mooring.api.client.KubernetesException when the create fails (a child created
     *     by someone else meanwhile conflicts, and the pass is retried from fresh state)
     */
    <C extends KubernetesObject> C createOnce(C desired);

    /**
     * Create or update a child through server-side apply with this controller's field manager
     * ({@code mooring-<controller name>}), owned by the object being reconciled as with
     * {@link #ensure}: the server merges (lists by their keys), and fields this controller stops
     * setting are removed by it if no one else manages them.
     *
     * <p>Nothing is sent when the cached child (its kind declared with {@link Controller#owns()})
     * already holds every field {@code desired} sets, with its value, and this controller sets
     * the same fields as at its last apply: the apply records a digest of the fields it sets in
     * the child's annotation {@code apply.mooring.dev/fields}. A child missing from the cache is
     * read live first. A value the API server rewrites (a quantity such as {@code 1000m} stored
     * as {@code 1}) never matches and costs an apply on every pass: write it as the server does.
     *
     * @return the live child (the cached one when nothing was sent)
     * @throws TerminalException if a child of that name exists and is not controlled by this
     *     object, as for {@link #ensure}
     * @throws dev.mooring.api.client.KubernetesException when the apply fails
     */
    <C extends KubernetesObject> C apply(C desired);

    /**
     * Delete the children of {@code kind} that this object controls and whose names are not in
     * {@code keep}, read from the cache; each delete is guarded by the child's UID and
     * resourceVersion, and propagates in the background (the garbage collector then deletes the
     * child's own dependents, such as a Job's Pods, which the API's default for Jobs would
     * orphan). {@code kind} must be watched ({@link Controller#owns()}).
     *
     * @return the children deleted
     * @throws IllegalArgumentException if the controller does not watch {@code kind}
     */
    <C extends KubernetesObject> java.util.List<C> prune(Class<C> kind, java.util.Collection<String> keep);

    /**
     * The children of {@code kind} that the object being reconciled controls (their controller
     * reference has its UID), read from the cache: copies, no request. A scan of the kind's cache
     * in the object's namespace (every namespace for a cluster-scoped owner).
     *
     * @throws IllegalArgumentException if the controller does not watch {@code kind}
     */
    <C extends KubernetesObject> java.util.List<C> owned(Class<C> kind);

    /**
     * Stage an edit of the object's {@code status}: {@code change} edits a copy, and the staged
     * status is written once, after the pass, through the status subresource, and only when it
     * differs from the stored one. It is written also when the pass fails (so that a failure can
     * be reported); edits outside {@code status} are ignored here: persist those with
     * {@link dev.mooring.api.client.ResourceClient#mutate}.
     */
    void updateStatus(java.util.function.Consumer<T> change);

    /**
     * Stage a standard condition in {@code status.conditions}, written like
     * {@link #updateStatus}: {@code lastTransitionTime} changes only when the status changes,
     * and {@code observedGeneration} is the object's {@code metadata.generation}.
     *
     * @param status {@code True}, {@code False} or {@code Unknown}
     * @throws IllegalArgumentException if type, status or reason are not valid
     */
    void condition(String type, String status, String reason, String message);

    /**
     * Queue an Event about the object. Events are sent after the status is written, best effort
     * (a failure never fails the pass) and bounded: at most 100 per pass, a repeated reason is
     * suppressed for 60 s, and a controller sends a burst of at most 20 and then 5 per second.
     *
     * @param reason a CamelCase identifier, such as {@code ChildCreated}
     * @throws IllegalArgumentException if the reason is not an identifier of at most 128 characters
     */
    void event(EventType type, String reason, String message);
}
