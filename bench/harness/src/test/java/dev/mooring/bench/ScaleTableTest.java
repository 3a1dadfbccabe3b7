package dev.mooring.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scale table shows the latencies of changes sent during the drain only when both peers had
 * some: a small drain (the smoke run) may end before the loader's first change leaves.
 */
class ScaleTableTest {

    @Test
    void latenciesDuringTheDrainAppearWhenBothPeersMeasuredSome() {
        Results results = measured();
        for (String peer : new String[] {"JOSDK", "Mooring"}) {
            results.add(peer, Results.scale("tick", Results.DURING_P50), peer.equals("JOSDK") ? 4000 : 15);
            results.add(peer, Results.scale("tick", Results.DURING_P99), peer.equals("JOSDK") ? 9000 : 400);
        }
        String table = results.scaleTable(100, 1, 2, 20, Map.of("tick", 448.0, "configmap", 1393.0));
        assertTrue(table.contains("| changes sent from the first pass until all 100 were reconciled (during the drain) | 40 (40-40) | 3.00 (3.00-3.00) |"),
                table);
        assertTrue(table.contains("| update -> reconcile p50 of the changes sent during the drain (ms) | 4000 (4000-4000) | 15 (15-15) |"),
                table);
        assertTrue(table.contains("| heap after full GC, all cached and waiting for their first pass (MiB) | 50 (50-50) | 45 (45-45) |"), table);
    }

    @Test
    void latenciesDuringTheDrainAreLeftOutWhenAPeerHadNone() {
        Results results = measured();
        results.add("JOSDK", Results.scale("tick", Results.DURING_P50), 4000);
        results.add("JOSDK", Results.scale("tick", Results.DURING_P99), 9000);
        String table = results.scaleTable(100, 1, 2, 20, Map.of("tick", 448.0, "configmap", 1393.0));
        assertTrue(table.contains("| changes sent from the first pass until all 100 were reconciled (during the drain) |"), table);
        assertFalse(table.contains("sent during the drain (ms)"), table);
        assertTrue(table.contains("| update -> reconcile p99 of the changes sent in the 2 s after the drain (ms) | 30 (30-30) | 30 (30-30) |"),
                table);
    }

    /** Every other measure of both kinds, for both peers, one run. */
    private static Results measured() {
        Results results = new Results();
        results.add("JOSDK", Results.HEAP_IDLE, 10 << 20);
        results.add("Mooring", Results.HEAP_IDLE, 40 << 20);
        for (String kind : new String[] {"tick", "configmap"}) {
            for (String measure : new String[] {Results.SYNC_SECONDS, Results.DRAIN_SECONDS, Results.PEAK_HEAP, Results.STEADY_HEAP,
                    Results.PEAK_TO_STEADY, Results.WAITING_HEAP, Results.WAITING_TO_STEADY, Results.COMMITTED_HEAP, Results.GC_PAUSES, Results.FULL_GCS, Results.PEAK_RSS,
                    Results.STEADY_RSS}) {
                results.add("JOSDK", Results.scale(kind, measure), 50 << 20);
                results.add("Mooring", Results.scale(kind, measure), 45 << 20);
            }
        }
        for (String peer : new String[] {"JOSDK", "Mooring"}) {
            results.add(peer, Results.scale("tick", Results.AFTER_P50), 12);
            results.add(peer, Results.scale("tick", Results.AFTER_P99), 30);
        }
        results.add("JOSDK", Results.scale("tick", Results.DURING_COUNT), 40);
        results.add("Mooring", Results.scale("tick", Results.DURING_COUNT), 3);
        return results;
    }
}
