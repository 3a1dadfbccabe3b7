package dev.mooring.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the health checks read before the controllers run: an operator with nothing to run, or one whose start failed. */
class OperatorStateTest {

    @Test
    void beforeTheControllersAreBuiltItIsAnOperatorWithNothingToRun() {
        OperatorState state = new OperatorState();
        assertTrue(state.healthy());
        assertTrue(state.ready());
        assertTrue(state.readyToServe());
        assertTrue(state.started());
        assertTrue(state.leader(), "without election, every replica leads");
        assertNull(state.leadership());
        assertNull(state.sharding());
        assertEquals(List.of(), state.controllers());
        assertEquals(Map.of(), state.connections());
        assertEquals(0, state.informerCount());
        assertEquals(List.of(), state.failures());
    }

    @Test
    void aFailedStartIsUnhealthyUnreadyAndNamedAndRefusesEnqueues() {
        OperatorState state = new OperatorState();
        state.failed("cannot connect: Connection refused");
        assertFalse(state.healthy());
        assertFalse(state.ready());
        assertFalse(state.readyToServe());
        assertFalse(state.started());
        assertEquals(List.of("cannot connect: Connection refused"), state.failures());
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> state.enqueue("widgets", new ObjectKey("ops", "w")));
        assertEquals("Mooring's controllers are not running: [cannot connect: Connection refused]", refused.getMessage());
    }
}
