package dev.mooring.engine.replica;

import java.util.Objects;

/**
 * How the replicas of one operator share its work: one replica does all of it; one leader does
 * all of it while the others stand by; or every replica does the keys of the shards it holds.
 */
public sealed interface ReplicaMode {

    /** One replica: its controllers start at once and write without a guard. */
    record Single() implements ReplicaMode {
    }

    /**
     * One leader elected with {@code election}'s Lease; the others stand by.
     *
     * @param warmStandby whether a standby keeps its caches and queues filled (no pass runs) so
     *     that it reconciles the moment it leads
     */
    record LeaderElected(ElectionSettings election, boolean warmStandby) implements ReplicaMode {
        public LeaderElected {
            Objects.requireNonNull(election, "election");
        }
    }

    /** Every replica active, each passing (and writing for) the keys of the shards whose Leases it holds. */
    record Sharded(ShardSettings settings) implements ReplicaMode {
        public Sharded {
            Objects.requireNonNull(settings, "settings");
        }
    }
}
