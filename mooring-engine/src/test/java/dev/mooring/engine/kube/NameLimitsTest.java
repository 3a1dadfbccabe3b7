package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.engine.replica.ElectionSettings;
import dev.mooring.engine.replica.ShardSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The limits of names and settings that go into requests, at their exact boundaries: the last value allowed and the first refused. */
class NameLimitsTest {

    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofSeconds(2);

    @Test
    void namesKindsAndGroupsHaveKubernetesLengths() {
        assertEquals("n".repeat(253), KubeNames.name("n".repeat(253), "name"));
        assertThrows(IllegalArgumentException.class, () -> KubeNames.name("n".repeat(254), "name"));
        assertEquals("a~b c", KubeNames.name("a~b c", "name"), "other characters are the server's to judge");
        assertThrows(IllegalArgumentException.class, () -> KubeNames.name("a\u001fb", "name"), "the last control character");
        assertEquals("a b", KubeNames.name("a b", "name"), "the first character after the controls");
        assertThrows(IllegalArgumentException.class, () -> KubeNames.name("a\u007fb", "name"));
        assertEquals("K" + "k".repeat(62), KubeNames.kind("K" + "k".repeat(62), "kind"));
        assertThrows(IllegalArgumentException.class, () -> KubeNames.kind("K" + "k".repeat(63), "kind"));
        String group = "g".repeat(63) + "." + "g".repeat(63) + "." + "g".repeat(63) + "." + "g".repeat(61);
        assertEquals(253, group.length());
        assertEquals(group, KubeNames.group(group, "group"));
        assertThrows(IllegalArgumentException.class, () -> KubeNames.group(group + "g", "group"));
        assertEquals("", KubeNames.group("", "group"), "the core group");
        assertEquals("example.com", KubeNames.group("example.com", "group"));
    }

    @Test
    void aSegmentEncodesEveryByteButTheUnreservedOnes() {
        assertEquals("azAZ09-._~", KubeNames.segment("azAZ09-._~"));
        assertEquals("%60%7B%40%5B%2F%3A%20%25%C3%A9", KubeNames.segment("`{@[/: %\u00e9"),
                "the characters just outside each unreserved range are encoded");
    }

    @Test
    void aValueInAMessageIsCutAtEightyCharactersAndItsControlsEscaped() {
        String eighty = "x".repeat(80);
        String message = assertThrows(IllegalArgumentException.class, () -> KubeNames.kind("1" + eighty.substring(1), "kind")).getMessage();
        assertEquals("kind '1" + "x".repeat(79) + "' is not a kind (a letter, then letters, digits or '-'; at most 63 characters)", message);
        String longer = assertThrows(IllegalArgumentException.class, () -> KubeNames.kind("1" + eighty, "kind")).getMessage();
        assertEquals("kind '1" + "x".repeat(79) + "...' is not a kind (a letter, then letters, digits or '-'; at most 63 characters)", longer);
        assertEquals("name 'a\\u001fb' is not a Kubernetes object name (1 to 253 characters, not '.' or '..', without '/', '%' or"
                + " control characters)", assertThrows(IllegalArgumentException.class, () -> KubeNames.name("a\u001fb", "name")).getMessage());
        assertEquals("kind ' ' is not a kind (a letter, then letters, digits or '-'; at most 63 characters)",
                assertThrows(IllegalArgumentException.class, () -> KubeNames.kind(" ", "kind")).getMessage(), "a space is shown as it is");
    }

    @Test
    void electionSettingsAcceptTheirLimitsAndRefuseJustBeyond() {
        String name = "l".repeat(253);
        assertEquals(name, new ElectionSettings(name, "ops", "me", LEASE, RENEW, RETRY).name());
        assertThrows(IllegalArgumentException.class, () -> new ElectionSettings(name + "l", "ops", "me", LEASE, RENEW, RETRY));
        String namespace = "n".repeat(63);
        assertEquals(namespace, new ElectionSettings("l", namespace, "me", LEASE, RENEW, RETRY).namespace());
        assertThrows(IllegalArgumentException.class, () -> new ElectionSettings("l", namespace + "n", "me", LEASE, RENEW, RETRY));
        String identity = "i".repeat(128);
        assertEquals(identity, new ElectionSettings("l", "ops", identity, LEASE, RENEW, RETRY).identity());
        assertThrows(IllegalArgumentException.class, () -> new ElectionSettings("l", "ops", identity + "i", LEASE, RENEW, RETRY));
        assertThrows(IllegalArgumentException.class, () -> new ElectionSettings("l", "ops", "", LEASE, RENEW, RETRY));
        assertEquals(Duration.ofSeconds(3), new ElectionSettings("l", "ops", "me", Duration.ofSeconds(3), Duration.ofSeconds(2),
                Duration.ofSeconds(1)).leaseDuration(), "the smallest whole-second chain");
        assertThrows(IllegalArgumentException.class, () -> new ElectionSettings("l", "ops", "me", Duration.ofMillis(1500),
                Duration.ofSeconds(1), Duration.ofMillis(500)), "a lease duration of whole seconds");
        assertEquals(Duration.ofSeconds(Integer.MAX_VALUE), new ElectionSettings("l", "ops", "me", Duration.ofSeconds(Integer.MAX_VALUE),
                RENEW, RETRY).leaseDuration());
        assertThrows(IllegalArgumentException.class, () -> new ElectionSettings("l", "ops", "me",
                Duration.ofSeconds(Integer.MAX_VALUE + 1L), RENEW, RETRY), "more seconds than a Lease holds");
        assertThrows(IllegalArgumentException.class, () -> new ElectionSettings("l", "ops", "me", LEASE, RENEW, RENEW),
                "the retry period below the renew deadline");
        assertThrows(IllegalArgumentException.class, () -> new ElectionSettings("l", "ops", "me", LEASE, LEASE, RETRY),
                "the renew deadline below the lease duration");
        assertThrows(IllegalArgumentException.class, () -> new ElectionSettings("l", "ops", "me", LEASE, RENEW, Duration.ZERO));
        assertEquals(Duration.ofMillis(1), new ElectionSettings("l", "ops", "me", LEASE, RENEW, Duration.ofMillis(1)).retryPeriod());
    }

    @Test
    void shardSettingsAcceptOneTo256ShardsAndLeaseNamesThatLeaveRoomForTheirSuffixes() {
        ElectionSettings election = new ElectionSettings("work", "ops", "me", LEASE, RENEW, RETRY);
        assertEquals(1, new ShardSettings(election, 1).shards());
        assertEquals(ShardSettings.MAX_SHARDS, new ShardSettings(election, 256).shards());
        assertThrows(IllegalArgumentException.class, () -> new ShardSettings(election, 0));
        assertThrows(IllegalArgumentException.class, () -> new ShardSettings(election, 257));
        String longest = "l".repeat(253 - "-member-00000000".length());
        ElectionSettings named = new ElectionSettings(longest, "ops", "me", LEASE, RENEW, RETRY);
        assertEquals(longest + "-shard-", new ShardSettings(named, 2).shardPrefix());
        ElectionSettings tooLong = new ElectionSettings(longest + "l", "ops", "me", LEASE, RENEW, RETRY);
        assertEquals("mooring.leader-election.lease-name must have at most 237 characters with sharding, got 238",
                assertThrows(IllegalArgumentException.class, () -> new ShardSettings(tooLong, 2)).getMessage());
        assertEquals("work-shard-", new ShardSettings(election, 2).shardPrefix());
        assertEquals("work-shard-1", new ShardSettings(election, 2).shardLease(1));
    }
}
