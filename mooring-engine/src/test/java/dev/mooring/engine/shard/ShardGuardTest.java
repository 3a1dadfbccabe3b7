package dev.mooring.engine.shard;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Writes are checked against the shard of the key the current thread passes, and only during its pass. */
class ShardGuardTest {

    private final Set<String> writable = new java.util.concurrent.CopyOnWriteArraySet<>(Set.of("mine"));
    private final ShardGuard guard = new ShardGuard(key -> true, key -> writable.contains(key.name()));

    @Test
    void aPassWritesWhileItsKeysShardIsFreshAndNoLonger() {
        try (ShardGuard.Passing passing = guard.passing(new ObjectKey("default", "mine"))) {
            assertTrue(guard.writesAllowed());
            writable.clear(); // the shard's Lease went stale or is being released
            assertFalse(guard.writesAllowed());
        }
        assertTrue(guard.writesAllowed(), "outside a pass nothing is checked");
    }

    @Test
    void theKeyBelongsToThePassingThreadOnly() throws Exception {
        try (ShardGuard.Passing passing = guard.passing(new ObjectKey("default", "theirs"))) {
            assertFalse(guard.writesAllowed());
            assertTrue(CompletableFuture.supplyAsync(guard::writesAllowed).get(), "another thread passes nothing");
        }
    }
}
