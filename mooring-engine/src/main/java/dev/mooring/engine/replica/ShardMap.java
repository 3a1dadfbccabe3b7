package dev.mooring.engine.replica;

import dev.mooring.api.ObjectKey;
import java.nio.charset.StandardCharsets;

/**
 * Which shard a key belongs to: the 32-bit FNV-1a hash of {@code namespace/name} (UTF-8; an
 * empty namespace for cluster-scoped objects), modulo the number of shards.
 *
 * <p>The function is fixed by this class, not by the JVM: every replica, whatever its version of
 * Java, maps a key to the same shard, and so does any tool that needs to know which replica
 * writes an object. A key's shard does not depend on the controller or the kind: the passes of
 * an object and of its namesakes of other kinds land on the same replica.
 *
 * @param count the number of shards, at least 1
 */
public record ShardMap(int count) {

    private static final int FNV_OFFSET = 0x811c9dc5;
    private static final int FNV_PRIME = 0x01000193;

    /** @throws IllegalArgumentException unless {@code count} is at least 1 */
    public ShardMap {
        if (count < 1) {
            throw new IllegalArgumentException("The number of shards must be at least 1, got " + count);
        }
    }

    /** The shard of {@code key}, from 0 to {@code count - 1}. */
    public int shardOf(ObjectKey key) {
        int hash = FNV_OFFSET;
        String namespace = key.namespace() == null ? "" : key.namespace();
        for (byte b : (namespace + "/" + key.name()).getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= FNV_PRIME;
        }
        return Integer.remainderUnsigned(hash, count);
    }
}
