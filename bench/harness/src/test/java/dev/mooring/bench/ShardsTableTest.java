package dev.mooring.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The sharding table's rate and speed-up come from the medians of each replica count. */
class ShardsTableTest {

    @Test
    void rateAndSpeedUpFollowTheMedians() {
        Map<Integer, List<Double>> seconds = new TreeMap<>(Map.of(1, List.of(30.0, 20.0, 25.0), 2, List.of(12.5), 4, List.of(6.0, 7.0)));
        Map<Integer, List<Double>> busy = new TreeMap<>(Map.of(1, List.of(40.0, 50.0, 45.0), 2, List.of(80.0), 4, List.of(97.0, 99.0)));
        String table = Results.shardsTable(10_000, 3, 16, seconds, busy);
        assertTrue(table.contains("| 1 | 25.00 (20.00-30.00) | 400 | 1.00x | 45 |"), table);
        assertTrue(table.contains("| 2 | 12.50 (12.50-12.50) | 800 | 2.00x | 80 |"), table);
        assertTrue(table.contains("| 4 | 6.50 (6.00-7.00) | 1538 | 3.85x | 98 |"), table);
    }

    @Test
    void theMachinesBusyShareLeavesIdleAndIowaitOut() {
        long[] before = MachineCpu.parse("cpu  100 0 50 800 50 0 0 0 0 0");
        long[] after = MachineCpu.parse("cpu  250 0 100 850 50 0 0 0 0 0");
        assertEquals(80.0, MachineCpu.busyPercent(before, after), 1e-9);
    }
}
