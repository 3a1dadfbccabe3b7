package dev.mooring.api.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubernetes.client.openapi.models.V1Condition;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionsTest {

    private static Clock at(String instant) {
        // a non-UTC zone on purpose: the stored time must still be UTC
        return Clock.fixed(Instant.parse(instant), ZoneId.of("Europe/Berlin"));
    }

    private static final Clock T1 = at("2026-11-29T10:00:00.123Z");
    private static final Clock T2 = at("2026-11-29T11:00:00Z");

    @Test
    void aNewConditionGetsTheCurrentTimeInUtcAndTheGeneration() {
        List<V1Condition> conditions = Conditions.set(null, "Ready", "True", "Reconciled", "all good", 3L, T1);
        V1Condition ready = conditions.get(0);
        assertEquals(OffsetDateTime.of(2026, 11, 29, 10, 0, 0, 0, ZoneOffset.UTC), ready.getLastTransitionTime());
        assertEquals(3L, ready.getObservedGeneration());
        assertEquals("all good", ready.getMessage());
    }

    @Test
    void theTransitionTimeChangesOnlyWithTheStatus() {
        List<V1Condition> first = Conditions.set(List.of(), "Ready", "False", "Waiting", "", 1L, T1);
        List<V1Condition> reworded = Conditions.set(first, "Ready", "False", "StillWaiting", "other text", 2L, T2);
        assertEquals(first.get(0).getLastTransitionTime(), reworded.get(0).getLastTransitionTime());
        assertEquals("StillWaiting", reworded.get(0).getReason());
        assertEquals(2L, reworded.get(0).getObservedGeneration());
        List<V1Condition> flipped = Conditions.set(reworded, "Ready", "True", "Reconciled", "", 2L, T2);
        assertEquals(OffsetDateTime.of(2026, 11, 29, 11, 0, 0, 0, ZoneOffset.UTC), flipped.get(0).getLastTransitionTime());
    }

    @Test
    void otherConditionsAndPositionsAreKeptAndDuplicatesDropped() {
        List<V1Condition> start = List.of(
                new V1Condition().type("Available").status("True").reason("A"),
                new V1Condition().type("Ready").status("False").reason("B"),
                new V1Condition().type("Progressing").status("True").reason("C"),
                new V1Condition().type("Ready").status("True").reason("Duplicate"));
        List<V1Condition> result = Conditions.set(start, "Ready", "True", "Fine", null, null, T1);
        assertEquals(List.of("Available", "Ready", "Progressing"), result.stream().map(V1Condition::getType).toList());
        assertEquals("Fine", result.get(1).getReason());
        assertEquals("A", result.get(0).getReason());
        assertEquals("False", start.get(1).getStatus(), "the input is not modified");
        assertTrue(Conditions.isTrue(result, "Ready"));
    }

    @Test
    void invalidValuesAreRejectedWithTheirName() {
        IllegalArgumentException status = assertThrows(IllegalArgumentException.class,
                () -> Conditions.set(List.of(), "Ready", "Yes", "Fine", "", null, T1));
        assertTrue(status.getMessage().contains("'Yes'"));
        assertThrows(IllegalArgumentException.class, () -> Conditions.set(List.of(), "Ready", "True", "not ok", "", null, T1));
        assertThrows(IllegalArgumentException.class, () -> Conditions.set(List.of(), "", "True", "Fine", "", null, T1));
        assertEquals("example.com/Synced",
                Conditions.set(List.of(), "example.com/Synced", "True", "Fine", "", null, T1).get(0).getType());
    }

    @Test
    void typesAndReasonsHaveKubernetesLengthLimits() {
        String longest = "a".repeat(63 - 1) + "." + "b".repeat(253 - 63) + "/" + "C".repeat(316 - 254);
        assertEquals(316, longest.length());
        assertEquals(longest, Conditions.set(List.of(), longest, "True", "Fine", "", null, T1).get(0).getType());
        assertThrows(IllegalArgumentException.class, () -> Conditions.set(List.of(), longest + "x", "True", "Fine", "", null, T1),
                "a type of 317 characters");
        String reason = "R".repeat(1024);
        assertEquals(reason, Conditions.set(List.of(), "Ready", "True", reason, "", null, T1).get(0).getReason());
        assertThrows(IllegalArgumentException.class, () -> Conditions.set(List.of(), "Ready", "True", reason + "R", "", null, T1));
    }

    @Test
    void getAndIsTrueReadTheConditionOfTheirTypeOnly() {
        List<V1Condition> conditions = Conditions.set(Conditions.set(null, "Synced", "True", "Fine", "", null, T1),
                "Ready", "False", "Waiting", "", null, T1);
        assertTrue(Conditions.get(conditions, "Missing").isEmpty(), "no condition of another type is answered");
        assertEquals("Waiting", Conditions.get(conditions, "Ready").orElseThrow().getReason());
        assertTrue(Conditions.isTrue(conditions, "Synced"));
        assertEquals(false, Conditions.isTrue(conditions, "Ready"), "False is not true");
        assertEquals(false, Conditions.isTrue(conditions, "Missing"));
        assertEquals(false, Conditions.isTrue(null, "Ready"));
    }
}
