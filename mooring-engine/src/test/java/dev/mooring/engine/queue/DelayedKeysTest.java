package dev.mooring.engine.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The delayed keys: an earlier deadline wins, a key is due at its deadline exactly, and the earliest goes first. */
class DelayedKeysTest {

    private final DelayedKeys<String> delayed = new DelayedKeys<>();

    private List<String> due(long now) {
        List<String> keys = new ArrayList<>();
        delayed.promoteDue(now, keys::add);
        return keys;
    }

    @Test
    void anEarlierDeadlineReplacesALaterOneAndNotTheOtherWayRound() {
        assertTrue(delayed.schedule("a", 100));
        assertFalse(delayed.schedule("a", 100), "the same deadline changes nothing");
        assertFalse(delayed.schedule("a", 150), "a later one neither");
        assertTrue(delayed.schedule("a", 60), "an earlier one does");
        assertEquals(1, delayed.size());
        assertEquals(40, delayed.nanosUntilNext(20));
        assertEquals(List.of(), due(59));
        assertEquals(List.of("a"), due(60), "due at its deadline exactly");
        assertTrue(delayed.isEmpty());
        assertEquals(List.of(), due(200), "the replaced deadline is not handed out again");
    }

    @Test
    void theEarliestIsDueFirstAndTheWaitIsAtLeastANanosecond() {
        delayed.schedule("late", 300);
        delayed.schedule("early", 100);
        delayed.schedule("middle", 200);
        assertEquals(-1, new DelayedKeys<String>().nanosUntilNext(0), "nothing delayed");
        assertEquals(1, delayed.nanosUntilNext(100), "due now: wait the least");
        assertEquals(1, delayed.nanosUntilNext(150), "overdue: the least too");
        assertEquals(List.of("early", "middle"), due(250));
        assertFalse(delayed.isEmpty());
        delayed.cancel("late");
        assertEquals(-1, delayed.nanosUntilNext(250), "a cancelled key is no deadline");
        assertTrue(delayed.isEmpty());
        delayed.schedule("x", 10);
        delayed.clear();
        assertEquals(0, delayed.size());
        assertEquals(-1, delayed.nanosUntilNext(0));
        assertEquals(List.of(), due(100));
    }
}
