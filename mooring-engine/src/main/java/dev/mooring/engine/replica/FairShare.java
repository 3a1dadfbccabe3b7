package dev.mooring.engine.replica;

import java.util.List;

/**
 * How many shards one replica should hold: the live members, ordered by identity, share the
 * shards as evenly as whole numbers allow, the first {@code shards % members} holding one more.
 * Every replica computes the same answer from the same members, so a replica above its share
 * releases shards that one below it can take; while replicas see different members for a moment
 * (one joined, one expired), the Leases still keep every shard with at most one holder.
 */
public final class FairShare {

    private FairShare() {
    }

    /**
     * The share of {@code self} among {@code members} (sorted, distinct, containing {@code self}).
     *
     * @throws IllegalArgumentException if {@code self} is not among {@code members}
     */
    public static int of(List<String> members, String self, int shards) {
        int rank = members.indexOf(self);
        if (rank < 0) {
            throw new IllegalArgumentException(self + " is not among the members " + members);
        }
        int each = shards / members.size();
        return rank < shards % members.size() ? each + 1 : each;
    }

    /**
     * The order in which {@code self} tries free shards: from its own stretch of the shard numbers
     * on ({@code rank * shards / members}), so that replicas joining together ask for different
     * Leases first instead of all racing for shard 0.
     */
    public static int firstChoice(List<String> members, String self, int shards) {
        int rank = Math.max(0, members.indexOf(self));
        return (int) ((long) rank * shards / members.size());
    }
}
