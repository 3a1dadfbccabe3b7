package dev.mooring.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventuallyTest {

    @Test
    void aCheckThatThrowsIsTriedAgainUntilItsValueIsAccepted() {
        AtomicInteger calls = new AtomicInteger();
        int value = Eventually.await("the third call", Duration.ofSeconds(5), () -> {
            if (calls.incrementAndGet() < 3) {
                throw new IllegalStateException("not yet");
            }
            return calls.get();
        }, v -> v >= 3);
        assertEquals(3, value);
    }

    @Test
    void aTimeoutNamesWhatWasAwaitedAndCarriesTheLastException() {
        AssertionError timeout = assertThrows(AssertionError.class, () -> Eventually.await("the impossible", Duration.ofMillis(300),
                () -> {
                    throw new IllegalStateException("never");
                }, v -> true));
        assertTrue(timeout.getMessage().startsWith("Timed out after 300 ms waiting for the impossible; the last check threw"),
                timeout.getMessage());
        assertEquals("never", timeout.getCause().getMessage());
        AssertionError value = assertThrows(AssertionError.class, () -> Eventually.await("five", Duration.ofMillis(200), () -> 4,
                v -> v == 5));
        assertEquals("Timed out after 200 ms waiting for five; last value: 4", value.getMessage());
    }

    @Test
    void consistentlyFailsAtTheFirstCheckThatDoesNotHold() {
        Eventually.consistently("always true", Duration.ofMillis(300), () -> true);
        AtomicInteger calls = new AtomicInteger();
        AssertionError broke = assertThrows(AssertionError.class,
                () -> Eventually.consistently("fewer than three calls", Duration.ofSeconds(5), () -> calls.incrementAndGet() < 3));
        assertTrue(broke.getMessage().startsWith("fewer than three calls stopped holding after"), broke.getMessage());
        assertEquals(3, calls.get());
    }
}
