package dev.mooring.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class AttemptTest {

    @Test
    void attemptsCountFromOneAndAContextSaysTheFirstByDefault() {
        assertEquals(1, Attempt.FIRST.number());
        assertFalse(Attempt.FIRST.last());
        assertEquals(new Attempt(2, true), new Attempt(2, true), "a value");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new Attempt(0, false));
        assertEquals("An attempt's number starts at 1, not 0", refused.getMessage());
    }
}
