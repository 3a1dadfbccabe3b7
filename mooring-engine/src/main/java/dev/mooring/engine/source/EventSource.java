package dev.mooring.engine.source;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

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

    /** Whether the initial list has been cached (stays true after later relists start). */
    boolean hasSynced();

    /** The fatal failure that ended the source, if any. */
    Optional<Throwable> failure();

    /** A description for logs: kind, scope and selectors. */
    String describe();
}
