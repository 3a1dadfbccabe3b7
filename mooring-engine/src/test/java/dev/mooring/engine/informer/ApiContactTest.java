package dev.mooring.engine.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.LogCapture;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An informer's contact with the API server: how long it waits to reconnect, and what it says when the server is back. */
class ApiContactTest {

    private static final KubernetesException DOWN = new KubernetesException(0, "", "connection refused", null);

    /** The informer's logger, which ApiContact writes to (its records belong to the informer). */
    @org.junit.jupiter.api.extension.RegisterExtension
    private final LogCapture log = new LogCapture(Informer.class);


    private static boolean within(Duration delay, Duration low, Duration high) {
        return delay.compareTo(low) >= 0 && delay.compareTo(high) < 0;
    }

    @Test
    void reconnectsWaitFromTheFirstDelayDoublingToFourSecondsAndStartOverOnceAnswered() {
        ApiContact contact = new ApiContact(() -> "ConfigMap in ops", Duration.ofSeconds(60));
        Duration first = ApiContact.FIRST_RECONNECT;
        assertTrue(within(contact.failed(DOWN), first.dividedBy(2), first), "jittered between half and all of the first delay");
        for (int i = 0; i < 10; i++) {
            Duration delay = contact.failed(DOWN);
            assertTrue(within(delay, first.dividedBy(2), ApiContact.RECONNECT_CAP), delay.toString());
        }
        Duration capped = contact.failed(DOWN);
        assertTrue(within(capped, ApiContact.RECONNECT_CAP.dividedBy(2), ApiContact.RECONNECT_CAP), "at the cap: " + capped);
        assertFalse(contact.connected());
        contact.answered();
        assertTrue(contact.connected());
        assertTrue(within(contact.failed(DOWN), first.dividedBy(2), first), "answered: from the first delay again");
    }

    @Test
    void aShorterConfiguredCapBoundsEveryReconnect() {
        Duration cap = ApiContact.FIRST_RECONNECT.dividedBy(2);
        ApiContact contact = new ApiContact(() -> "ConfigMap in ops", cap);
        for (int i = 0; i < 5; i++) {
            assertTrue(within(contact.failed(DOWN), cap.dividedBy(2), cap.plusNanos(1)));
        }
        ApiContact between = new ApiContact(() -> "ConfigMap in ops", Duration.ofSeconds(2));
        for (int i = 0; i < 10; i++) {
            between.failed(DOWN);
        }
        assertTrue(within(between.failed(DOWN), Duration.ofSeconds(1), Duration.ofSeconds(2).plusNanos(1)), "capped at the configured 2 s");
    }

    @Test
    void theFirstFailureWarnsTheRestAreQuietAndTheReturnIsToldOnce() {
        ApiContact contact = new ApiContact(() -> "ConfigMap in ops", Duration.ofSeconds(60));
        contact.answered();
        List<String> logged = log.lines();
        assertEquals(List.of(), logged, "a first answer is no news");
        contact.failed(DOWN);
        contact.failed(DOWN);
        logged = log.lines();
        assertEquals(2, logged.size());
        assertTrue(logged.get(0).matches("WARNING Watch of ConfigMap in ops failed, retrying in 0\\.\\d+ s: .*"), logged.get(0));
        assertTrue(logged.get(1).startsWith("FINE "), logged.get(1));
        contact.answered();
        contact.answered();
        logged = log.lines();
        assertEquals("INFO The API server answers the informer of ConfigMap in ops again", logged.get(2));
        assertEquals(3, logged.size(), "told once");
    }

    @Test
    void theLastProblemAndTheLastContactAreKept() {
        ApiContact contact = new ApiContact(() -> "ConfigMap in ops", Duration.ofSeconds(60));
        assertEquals(0, contact.lastContactMillis(), "no answer yet");
        long before = System.currentTimeMillis();
        contact.answered();
        assertTrue(contact.lastContactMillis() >= before);
        contact.failed(DOWN);
        assertEquals(DOWN.getMessage(), contact.lastProblem());
    }
}
