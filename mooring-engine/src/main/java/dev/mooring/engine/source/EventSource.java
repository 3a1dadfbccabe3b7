package dev.mooring.engine.source;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What a controller needs of the source of its events and reads: a kind's objects as cached, and
 * their changes in order. The {@code Informer} is the source in production; engine tests use one
 * of their own, so that a controller's guarantees can be checked without an API server.
 *
 * <p>Listeners and failure listeners are added before the source starts. Reads never block:
 * before {@link #hasSynced()} they see whatever is cached so far.
 */
public interface EventSource<T extends KubernetesObject> {

    /** The kind this source serves. */
    ResourceType<T> type();

    /**
     * The one namespace whose objects it holds, or null when it is not limited to one: every
     * namespace, a cluster-scoped kind, or a set of namespaces (see {@link #holds}).
     */
    String namespace();

    /** Whether it holds the objects of {@code namespace} (of a namespaced kind); by default, when it watches that one or all. */
    default boolean holds(String namespace) {
        return namespace() == null || namespace().equals(namespace);
    }

    /** Subscribe to changes, delivered in order on the source's own thread. */
    void addListener(InformerListener<T> listener);

    /** Be told once when the source fails fatally (it then delivers nothing more). */
    void onFailure(Consumer<Throwable> listener);

    /** A copy of the cached object with this key; the caller may change it. */
    Optional<T> get(ObjectKey key);

    /**
     * The cached object itself, not a copy: for reading only (a change would change the cache
     * without the API server knowing).
     */
    Optional<T> cached(ObjectKey key);

    /** Copies of every cached object. */
    List<T> list();

    /**
     * Adds an index over the cached objects, filled from what is cached now and kept on every
     * change. Adding again an index with the same {@code declaredBy} keeps the one there.
     *
     * @param declaredBy what declares it, for conflicts and warnings ({@code Bean.method})
     * @throws IllegalStateException if another declaration has that name
     */
    void addIndex(String name, String declaredBy, Function<T, Collection<String>> values);

    /**
     * Copies of the cached objects under {@code value} in the index {@code name} ({@code
     * dev.mooring.api.Cache#CONTROLLER_INDEX} or one added).
     *
     * @throws IllegalArgumentException if there is no such index
     */
    List<T> indexed(String name, String value);

    /** Whether the initial list has been cached (stays true after later relists start). */
    boolean hasSynced();

    /** The fatal failure that ended the source, if any. */
    Optional<Throwable> failure();

    /** A description for logs: kind, scope and selectors. */
    String describe();

    /**
     * Waits until the cache holding {@code namespace}'s objects (null: every cache of this source)
     * has applied resourceVersion {@code version} or a later one, or until {@code deadlineNanos}
     * ({@link System#nanoTime()}): read-your-writes. By default nothing is waited for (a source
     * without versions, such as a test's).
     *
     * @return whether it was reached
     * @throws InterruptedException when the waiting thread is interrupted
     */
    default boolean awaitSeen(String namespace, long version, long deadlineNanos) throws InterruptedException {
        return true;
    }

    /** Whether an object with these labels (null: none) is within this source's label selector (by default, any). */
    default boolean mayHold(java.util.Map<String, String> labels) {
        return true;
    }
}
