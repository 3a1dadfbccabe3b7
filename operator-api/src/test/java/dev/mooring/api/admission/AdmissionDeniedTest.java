package dev.mooring.api.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AdmissionDeniedTest {

    @Test
    void defaultsTo403Forbidden() {
        AdmissionDenied denied = new AdmissionDenied("nope");
        assertEquals(403, denied.code());
        assertEquals("Forbidden", denied.reason());
        assertEquals("nope", denied.getMessage());
    }

    @Test
    void theReasonFollowsTheCode() {
        assertEquals("Invalid", new AdmissionDenied(422, "bad").reason());
        assertEquals("Conflict", new AdmissionDenied(409, "taken").reason());
        assertEquals("", new AdmissionDenied(418, "teapot").reason());
        assertEquals("Custom", new AdmissionDenied(400, "Custom", "x").reason());
    }

    @Test
    void codesOutside400To599AndBlankMessagesAreRefused() {
        for (int code : new int[] {0, 200, 399, 600}) {
            IllegalArgumentException problem = assertThrows(IllegalArgumentException.class, () -> new AdmissionDenied(code, "x"));
            assertTrue(problem.getMessage().contains("between 400 and 599"), problem.getMessage());
        }
        assertEquals(599, new AdmissionDenied(599, "x").code(), "599 is the last code allowed");
        assertEquals(400, new AdmissionDenied(400, "x").code());
        assertThrows(IllegalArgumentException.class, () -> new AdmissionDenied(" "));
        assertThrows(IllegalArgumentException.class, () -> new AdmissionDenied(null));
        assertThrows(IllegalArgumentException.class, () -> new AdmissionDenied(403, null, "x"));
    }
}
