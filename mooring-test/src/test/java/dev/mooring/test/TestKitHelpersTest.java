package dev.mooring.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.api.client.KubernetesException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The test kit's clock and its retry on conflict. */
class TestKitHelpersTest {

    @Test
    void aTestClockStandsStillUntilMovedAndOnlyMovesForward() {
        TestClock clock = new TestClock(Instant.parse("2030-01-01T00:00:00Z"));
        assertEquals(Instant.parse("2030-01-01T00:00:00Z"), clock.instant());
        clock.advance(Duration.ofHours(2));
        assertEquals(Instant.parse("2030-01-01T02:00:00Z"), clock.instant());
        assertThrows(IllegalArgumentException.class, () -> clock.advance(Duration.ofSeconds(-1)));
        assertEquals(java.time.ZoneOffset.UTC, clock.getZone());
    }

    @Test
    void conflictsAreTriedAgainOtherFailuresAndTheLastConflictAreThrown() {
        AtomicInteger calls = new AtomicInteger();
        assertEquals("written", MooringExtension.retryOnConflict(3, () -> {
            if (calls.incrementAndGet() < 3) {
                throw new KubernetesException(409, "Conflict", "stale", null);
            }
            return "written";
        }));
        assertEquals(3, calls.get());

        calls.set(0);
        KubernetesException last = assertThrows(KubernetesException.class, () -> MooringExtension.retryOnConflict(2, () -> {
            calls.incrementAndGet();
            throw new KubernetesException(409, "Conflict", "stale", null);
        }));
        assertEquals(409, last.code());
        assertEquals(2, calls.get(), "no more than the attempts given");

        calls.set(0);
        assertEquals("guarded", MooringExtension.retryOnConflict(2, () -> {
            if (calls.incrementAndGet() < 2) {
                throw new KubernetesException(422, "Invalid", "the test operation failed", null, true);
            }
            return "guarded";
        }), "the 422 of a failed guard is a lost race too");
        assertEquals(2, calls.get());

        calls.set(0);
        assertThrows(KubernetesException.class, () -> MooringExtension.retryOnConflict(5, () -> {
            calls.incrementAndGet();
            throw new KubernetesException(422, "Invalid", "refused", null);
        }));
        assertEquals(1, calls.get(), "anything but a conflict (a 422 for an invalid object) is not tried again");
    }
}
