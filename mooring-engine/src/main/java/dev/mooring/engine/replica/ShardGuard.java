package dev.mooring.engine.replica;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.KubeHttp;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What a controller's workers ask of sharding: whether to pass a key at all, and, during a pass,
 * whether its writes may still be sent. The key a thread passes is kept per thread, so that every
 * write of the pass (objects, status, Events) is checked against that key's shard just before it
 * is sent; a write from a thread the pass started itself is not checked.
 */
public final class ShardGuard {

    /** The end of a pass on this thread. */
    public interface Passing extends AutoCloseable {
        @Override
        void close();
    }

    private final Predicate<ObjectKey> takes;
    private final Predicate<ObjectKey> writable;
    private final ThreadLocal<ObjectKey> passing = new ThreadLocal<>();

    /**
     * @param takes whether this replica passes a key now (its shard is owned and not being released)
     * @param writable whether a pass of a key may write now (its shard's Lease is fresh)
     */
    public ShardGuard(Predicate<ObjectKey> takes, Predicate<ObjectKey> writable) {
        this.takes = Objects.requireNonNull(takes, "takes");
        this.writable = Objects.requireNonNull(writable, "writable");
    }

    /** The guard of {@code shards}' shards. */
    public static ShardGuard of(ShardCoordinator shards) {
        return new ShardGuard(shards::owns, shards::writesAllowed);
    }

    /** Whether this replica passes {@code key} now. */
    public boolean takes(ObjectKey key) {
        return takes.test(key);
    }

    /** The current thread passes {@code key} until the returned scope closes. */
    public Passing passing(ObjectKey key) {
        passing.set(key);
        return passing::remove;
    }

    /** Whether the current thread may write: outside a pass, or its key's shard still fresh. */
    public boolean writesAllowed() {
        ObjectKey key = passing.get();
        return key == null || writable.test(key);
    }

    /** {@code http} whose writes are sent only when {@link #writesAllowed()}. */
    public KubeHttp guard(KubeHttp http) {
        return http.guardWrites(this::writesAllowed,
                "this replica no longer holds the Lease of the object's shard (released, taken over, or not renewed in time)");
    }
}
