package dev.mooring.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GcLogTest {

    private static final String LOG = """
            [0.008s][info][gc] Using G1
            [0.497s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 18M->6M(380M) 19.784ms
            [11.241s][info][gc] GC(44) Concurrent Mark Cycle
            [11.502s][info][gc] GC(45) Pause Young (Normal) (G1 Evacuation Pause) 382M->266M(458M) 18.998ms
            [11.539s][info][gc] GC(44) Pause Remark 272M->269M(458M) 14.950ms
            [11.696s][info][gc] GC(44) Pause Cleanup 332M->332M(458M) 0.283ms
            [11.814s][info][gc] GC(46) Pause Young (Prepare Mixed) (G1 Evacuation Pause) 384M->264M(458M) 23.502ms
            [14.602s][info][gc] GC(52) Pause Full (Diagnostic Command) 400M->239M(512M) 268.299ms
            """;

    @Test
    void thePeakInUseCountsOnlyCollectionsThatEvacuateNotRemarkOrCleanup() {
        GcLog gc = GcLog.parse(LOG);
        assertEquals(266L << 20, gc.peakAfterGc());
        assertEquals(512L << 20, gc.peakCommitted());
    }

    @Test
    void everyPauseCountsForTheTimeAndFullOnesAreCounted() {
        GcLog gc = GcLog.parse(LOG);
        assertEquals(19.784 + 18.998 + 14.950 + 0.283 + 23.502 + 268.299, gc.pauseMillis(), 1e-9);
        assertEquals(1, gc.fullCollections());
        assertEquals(6, gc.collections());
    }

    @Test
    void aMissingLogHasNoCollections() {
        GcLog gc = GcLog.parse("");
        assertEquals(0, gc.peakAfterGc());
        assertEquals(0, gc.collections());
    }
}
