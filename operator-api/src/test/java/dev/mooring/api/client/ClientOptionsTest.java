package dev.mooring.api.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClientOptionsTest {

    @Test
    void aDeleteGracePeriodIsWholeSecondsAndAPreconditionNotBlank() {
        assertEquals(Duration.ZERO, DeleteOptions.DEFAULT.withGracePeriod(Duration.ZERO).gracePeriod());
        assertEquals("A grace period is zero or more whole seconds, got PT0.5S",
                assertThrows(IllegalArgumentException.class, () -> DeleteOptions.DEFAULT.withGracePeriod(Duration.ofMillis(500)))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> DeleteOptions.DEFAULT.withGracePeriod(Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> DeleteOptions.DEFAULT.withUid(" "));
        DeleteOptions options = DeleteOptions.DEFAULT.withUid("u").asDryRun().withPropagation(DeleteOptions.Propagation.ORPHAN);
        assertEquals("u", options.uid());
        assertNull(options.resourceVersion());
        assertTrue(options.dryRun());
        assertEquals("Orphan", options.propagation().wire());
    }

    @Test
    void aListPageHasOneToTenThousandObjectsAndBlankSelectorsSelectAll() {
        assertEquals("A page size is 1 to 10000, got 0",
                assertThrows(IllegalArgumentException.class, () -> ListOptions.DEFAULT.withPageSize(0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ListOptions.DEFAULT.withPageSize(10_001));
        assertNull(ListOptions.DEFAULT.withLabelSelector(" ").labelSelector());
        assertTrue(ListOptions.DEFAULT.inAllNamespaces().allNamespaces());
        assertNull(WatchOptions.DEFAULT.from("").resourceVersion(), "a blank resourceVersion starts from the current objects");
        assertEquals(ListOptions.DEFAULT, new WatchOptions(null, null, false).list());
    }
}
