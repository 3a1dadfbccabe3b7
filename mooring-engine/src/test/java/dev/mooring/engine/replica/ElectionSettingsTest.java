package dev.mooring.engine.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link ElectionSettings}: each value Kubernetes or the election cannot work with refused, naming its setting; the bounds accepted. */
class ElectionSettingsTest {

    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofSeconds(2);

    private static String refusal(String name, String namespace, String identity, Duration lease, Duration renew, Duration retry) {
        return assertThrows(IllegalArgumentException.class, () -> new ElectionSettings(name, namespace, identity, lease, renew, retry))
                .getMessage();
    }

    @Test
    void theLeaseIsNamedAsKubernetesNamesObjects() {
        new ElectionSettings("a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61), "n".repeat(63),
                "i".repeat(128), LEASE, RENEW, RETRY);
        for (String name : new String[] {null, "Election", "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(62)}) {
            assertEquals("mooring.leader-election.lease-name must be a DNS subdomain name, got '" + name + "'",
                    refusal(name, "ops", "me", LEASE, RENEW, RETRY));
        }
        for (String namespace : new String[] {null, "a.b", "n".repeat(64)}) {
            assertEquals("mooring.leader-election.namespace must be a DNS label, got '" + namespace + "'",
                    refusal("election", namespace, "me", LEASE, RENEW, RETRY));
        }
        for (String identity : new String[] {null, "", "i".repeat(129)}) {
            assertEquals("mooring.leader-election.identity must have 1-128 characters, got '" + identity + "'",
                    refusal("election", "ops", identity, LEASE, RENEW, RETRY));
        }
    }

    @Test
    void theLeaseDurationIsWholeSecondsAndTheTimingsAreOrdered() {
        new ElectionSettings("election", "ops", "me", Duration.ofSeconds(1), Duration.ofMillis(500), Duration.ofMillis(100));
        for (Duration lease : new Duration[] {Duration.ofMillis(1500), Duration.ofMillis(999), Duration.ZERO, Duration.ofSeconds(-1),
            Duration.ofSeconds(Integer.MAX_VALUE + 1L)}) {
            assertEquals("mooring.leader-election.lease-duration must be a positive whole number of seconds, got " + lease,
                    refusal("election", "ops", "me", lease, RENEW, RETRY));
        }
        String order = "Require 0 < mooring.leader-election.retry-period (%s) < mooring.leader-election.renew-deadline (%s)"
                + " < mooring.leader-election.lease-duration (%s)";
        assertEquals(String.format(order, "PT0S", RENEW, LEASE), refusal("election", "ops", "me", LEASE, RENEW, Duration.ZERO));
        assertEquals(String.format(order, RENEW, RENEW, LEASE), refusal("election", "ops", "me", LEASE, RENEW, RENEW));
        assertEquals(String.format(order, RETRY, LEASE, LEASE), refusal("election", "ops", "me", LEASE, LEASE, RETRY));
    }
}
