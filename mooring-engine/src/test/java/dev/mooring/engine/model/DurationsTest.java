package dev.mooring.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Duration texts of annotations and configuration: each unit, ISO-8601, and the messages of what is refused. */
class DurationsTest {

    @Test
    void eachUnitAndIsoTextParses() {
        assertEquals(Duration.ofSeconds(30), Durations.parse("x", "30"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("x", "1.5"), "a fraction of seconds");
        assertEquals(Duration.ofSeconds(30), Durations.parse("x", " 30s "));
        assertEquals(Duration.ofMinutes(5), Durations.parse("x", "5m"));
        assertEquals(Duration.ofMinutes(90), Durations.parse("x", "1.5h"));
        assertEquals(Duration.ofMillis(500), Durations.parse("x", "500MS"));
        assertEquals(Duration.ofMinutes(5), Durations.parse("x", "pt5m"));
        assertEquals(Duration.ofDays(1), Durations.parse("x", "P1D"));
    }

    @Test
    void whatIsNotADurationIsRefusedNamingWhereItCameFrom() {
        assertEquals("mooring.request.timeout must be a duration such as 30s, 500ms, 5m or PT30S, got 'soon'",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse("mooring.request.timeout", "soon")).getMessage());
        assertEquals("x must be a duration such as 30s, 500ms, 5m or PT30S, got 'null'",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse("x", null)).getMessage());
        assertEquals("x must be a duration such as 30s, 500ms, 5m or PT30S, got '-1s'",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse("x", "-1s")).getMessage(), "no negative numbers");
        assertEquals("x must be a duration such as 30s, 500ms, 5m or PT30S, got 'PTx'",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse("x", "PTx")).getMessage());
    }

    @Test
    void aPositiveDurationIsMoreThanZeroAndABoundedOneAtMostItsBound() {
        assertEquals("x must be greater than zero, got '0s'",
                assertThrows(IllegalArgumentException.class, () -> Durations.positive("x", "0s")).getMessage());
        assertEquals("x must be greater than zero, got 'PT-1S'",
                assertThrows(IllegalArgumentException.class, () -> Durations.positive("x", "PT-1S")).getMessage());
        assertEquals(Duration.ofMillis(1), Durations.positive("x", "1ms"));
        assertEquals(Duration.ofHours(1), Durations.positiveAtMost("x", "1h", Duration.ofHours(1)), "the bound itself is allowed");
        assertEquals("x must be at most 1h, got '61m'",
                assertThrows(IllegalArgumentException.class, () -> Durations.positiveAtMost("x", "61m", Duration.ofHours(1))).getMessage());
    }

    @Test
    void aBoundIsDescribedInTheLargestWholeUnit() {
        assertEquals("2h", Durations.describe(Duration.ofHours(2)));
        assertEquals("90m", Durations.describe(Duration.ofMinutes(90)));
        assertEquals("45s", Durations.describe(Duration.ofSeconds(45)));
        assertEquals("1500ms", Durations.describe(Duration.ofMillis(1500)));
    }
}
