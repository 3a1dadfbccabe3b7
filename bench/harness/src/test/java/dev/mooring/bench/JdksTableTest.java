package dev.mooring.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JDK table: both peers per JDK, then each peer on each JDK against the first; a missing value fails it. */
class JdksTableTest {

    @Test
    void peersSideBySidePerJdkAndEachJdkAgainstTheFirst() {
        Results results = new Results();
        for (String version : List.of("17", "25")) {
            double factor = version.equals("17") ? 1 : 0.8;
            results.add("JOSDK " + version, Results.LAUNCH_TO_FRAMEWORK, 50);
            results.add("Mooring " + version, Results.LAUNCH_TO_FRAMEWORK, 3000 * factor);
            for (String peer : List.of("JOSDK ", "Mooring ")) {
                results.add(peer + version, Results.LAUNCH_TO_READY, 4000 * factor);
                results.add(peer + version, Results.LAUNCH_TO_ALL, 5000 * factor);
                results.add(peer + version, Results.DRAIN_FROM_FRAMEWORK, 2000);
                results.add(peer + version, Results.HEAP_IDLE, 40 * 1024 * 1024 * factor);
            }
        }
        String table = results.jdksTable(5000, 1, List.of("17", "25"));
        assertTrue(table.contains("| measure, Java 25 | JOSDK | Mooring | Mooring/JOSDK |"), table);
        assertTrue(table.contains("| process launch -> framework start (ms) | 50 (50-50) | 2400 (2400-2400) | 48.00x |"), table);
        assertTrue(table.contains("| measure, Mooring | Java 17 | Java 25 | 25/17 |"), table);
        assertTrue(table.contains("| heap after GC with 0 objects (MiB) | 40 (40-40) | 32 (32-32) | 0.80x |"), table);
        results.add("Mooring 21", Results.LAUNCH_TO_READY, 1);
        assertThrows(IllegalStateException.class, () -> results.jdksTable(5000, 1, List.of("17", "21")), "no value is no table");
    }

    @Test
    void theVersionIsTheFeatureReleaseOfTheReleaseFile(@TempDir Path home) throws Exception {
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25.0.3\"\n");
        assertEquals("25", Jdks.version(home));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"17\"\n");
        assertEquals("17", Jdks.version(home));
    }
}
