package dev.mooring.engine.replica;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The settings of a {@link ShardCoordinator}: the Leases' namespace, name prefix, this replica's
 * identity and the timing (those of leader election), and the number of shards.
 *
 * <p>Shard {@code i} is owned through the Lease {@code <lease-name>-shard-<i>}; each replica
 * announces itself with the Lease {@code <lease-name>-member-<8 hex digits of the SHA-256 of its
 * identity>}, held by its identity.
 *
 * @param election the Leases' name prefix and namespace, this replica's identity, and the timing
 * @param shards the number of shards, from 1 to {@link #MAX_SHARDS}
 */
public record ShardSettings(ElectionSettings election, int shards) {

    /** The most shards: each held shard costs its holder one request per retry period. */
    public static final int MAX_SHARDS = 256;

    /** @throws IllegalArgumentException naming the setting, unless the shards and the Lease names are valid */
    public ShardSettings {
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException("mooring.sharding.shards must be from 1 to " + MAX_SHARDS + ", got " + shards);
        }
        if (election.name().length() > 253 - "-member-00000000".length()) {
            throw new IllegalArgumentException("mooring.leader-election.lease-name must have at most "
                    + (253 - "-member-00000000".length()) + " characters with sharding, got " + election.name().length());
        }
    }

    /** The Lease name of shard {@code shard}. */
    public String shardLease(int shard) {
        return election.name() + "-shard-" + shard;
    }

    /** The prefix of every shard Lease's name. */
    public String shardPrefix() {
        return election.name() + "-shard-";
    }

    /** The prefix of every member Lease's name. */
    public String memberPrefix() {
        return election.name() + "-member-";
    }

    /** This replica's member Lease. */
    public String memberLease() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(election.identity().getBytes(StandardCharsets.UTF_8));
            return memberPrefix() + HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
