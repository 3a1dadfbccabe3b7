package dev.mooring.examples.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.test.MooringExtension;
import dev.mooring.test.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The passes' clock is the test's: the conditions the controller writes carry its time, through the API server. */
class ClockTest {

    private static final TestClock CLOCK = new TestClock(Instant.parse("2030-01-01T00:00:00Z"));

    @RegisterExtension
    static final MooringExtension mooring = MooringExtension.embedded(new BundleController()).withClock(CLOCK);

    @Test
    void aConditionsTransitionTimeComesFromTheTestsClock() {
        mooring.client().create(new Bundle(mooring.namespace(), "timed", Map.of("a", "1")));
        Bundle bundle = mooring.awaitObject(Bundle.class, "timed", b -> b.getStatus() != null && b.getStatus().conditions != null,
                Duration.ofSeconds(30));
        assertEquals(OffsetDateTime.of(2030, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
                bundle.getStatus().conditions.get(0).getLastTransitionTime().withOffsetSameInstant(ZoneOffset.UTC));
    }
}
