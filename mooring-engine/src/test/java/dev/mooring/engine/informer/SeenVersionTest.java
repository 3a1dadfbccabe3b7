package dev.mooring.engine.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SeenVersionTest {

    private final SeenVersion seen = new SeenVersion();

    @Test
    void versionsAreNumbersAndAnythingElseIsNone() {
        assertEquals(0, SeenVersion.parse("0"));
        assertEquals(123456789012345678L, SeenVersion.parse("123456789012345678"));
        assertEquals(-1, SeenVersion.parse("1234567890123456789"), "longer than a long safely holds");
        assertEquals(-1, SeenVersion.parse("12a"));
        assertEquals(-1, SeenVersion.parse("-5"));
        assertEquals(-1, SeenVersion.parse(""));
        assertEquals(-1, SeenVersion.parse(null));
    }

    @Test
    void theVersionAppliedOnlyGrows() {
        assertEquals(-1, seen.get());
        seen.applied("7");
        seen.applied("5");
        seen.applied("not-a-number");
        assertEquals(7, seen.get());
    }

    @Test
    void aWaitEndsWhenTheVersionIsAppliedOrAtItsDeadline() throws Exception {
        seen.applied("7");
        assertTrue(seen.await(7, System.nanoTime() + TimeUnit.MINUTES.toNanos(1)), "reached already: no wait");
        assertTrue(seen.await(6, System.nanoTime()), "whatever the deadline");
        assertFalse(seen.await(8, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20)), "the deadline passes");

        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return seen.await(9, System.nanoTime() + TimeUnit.MINUTES.toNanos(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        seen.applied("8");
        seen.applied("9");
        assertTrue(waiting.get(30, TimeUnit.SECONDS), "woken by the version applied, long before its deadline");
    }

    @Test
    void anInterruptedWaitThrows() {
        Thread.currentThread().interrupt();
        org.junit.jupiter.api.Assertions.assertThrows(InterruptedException.class,
                () -> seen.await(1, System.nanoTime() + TimeUnit.MINUTES.toNanos(1)));
    }
}
