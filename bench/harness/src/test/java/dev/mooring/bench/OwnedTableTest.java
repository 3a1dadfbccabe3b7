package dev.mooring.bench;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The owned-children table: each peer's heap above its JVM's idle heap, per cached object and per owner. */
class OwnedTableTest {

    private static final double MIB = 1024 * 1024;

    @Test
    void heapAboveIdleIsDividedByWhatEachPeerCaches() {
        Results results = new Results();
        results.add("JOSDK", Results.HEAP_IDLE, 20 * MIB);
        results.add("Mooring", Results.HEAP_IDLE, 40 * MIB);
        results.add("JOSDK, label selector", Results.OWNED_HEAP, 24 * MIB);
        results.add("Mooring, no selector", Results.OWNED_HEAP, 64 * MIB);
        results.add("Mooring, ownsLabelSelector", Results.OWNED_HEAP, 42 * MIB);
        for (String peer : new String[] {"JOSDK, label selector", "Mooring, no selector", "Mooring, ownsLabelSelector"}) {
            results.add(peer, Results.OWNED_START, 5000);
        }
        String table = results.ownedTable(1024, 1, Map.of("JOSDK, label selector", 2048.0, "Mooring, no selector", 12288.0,
                "Mooring, ownsLabelSelector", 2048.0), "JOSDK, label selector", "Mooring, no selector", "Mooring, ownsLabelSelector");
        assertTrue(table.startsWith("N = 1024 owners, each owning one labelled 1 KiB ConfigMap, beside 10240 unrelated"), table);
        assertTrue(table.contains("| measure | JOSDK, label selector | Mooring, no selector | Mooring, ownsLabelSelector |"
                + " Mooring, ownsLabelSelector / JOSDK, label selector |"), table);
        assertTrue(table.contains("| heap above idle, all cached (MiB) | 4.00 (4.00-4.00) | 24 (24-24) | 2.00 (2.00-2.00) | 0.50x |"),
                table);
        // 4 MiB / 2048 objects; 24 MiB / 12288; 2 MiB / 2048
        assertTrue(table.contains("| heap above idle per cached object (B) | 2048 (2048-2048) | 2048 (2048-2048) | 1024 (1024-1024) | 0.50x |"),
                table);
        assertTrue(table.contains("| heap above idle per owner (B) | 4096 (4096-4096) | 24576 (24576-24576) | 2048 (2048-2048) | 0.50x |"),
                table);
    }

    @Test
    void aPeerWithoutItsMeasuresFailsTheTable() {
        Results results = new Results();
        results.add("JOSDK", Results.HEAP_IDLE, 20 * MIB);
        results.add("JOSDK, label selector", Results.OWNED_HEAP, 24 * MIB);
        assertThrows(IllegalStateException.class, () -> results.ownedTable(10, 1, Map.of("JOSDK, label selector", 20.0),
                "JOSDK, label selector", "Mooring, ownsLabelSelector"));
    }
}
