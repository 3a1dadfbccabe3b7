package dev.mooring.examples.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The install folder mooring:manifests wrote in this build (process-classes, before the tests)
 * is the golden one, file by file: a change to a controller's kinds, options or RBAC shows here
 * first. When the change is meant, copy target/manifests/* to src/test/resources/golden/.
 */
class ManifestsTest {

    private static final Path WRITTEN = Path.of("target/manifests");
    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    @Test
    void theWrittenManifestsAreTheGoldenOnes() throws IOException {
        assertEquals(names(GOLDEN), names(WRITTEN));
        for (String name : names(GOLDEN)) {
            assertEquals(Files.readString(GOLDEN.resolve(name)), Files.readString(WRITTEN.resolve(name)),
                    name + " differs from the golden copy (if the change is meant, copy target/manifests/" + name + " to " + GOLDEN + ")");
        }
    }

    @Test
    void theWorkloadSummaryMayOnlyReadPods() throws IOException {
        String rbac = Files.readString(WRITTEN.resolve("rbac.yaml"));
        int pods = rbac.indexOf("      - pods\n");
        assertTrue(pods > 0, rbac);
        assertEquals("    verbs:\n      - get\n      - list\n      - watch\n", rbac.substring(rbac.indexOf("    verbs:", pods),
                rbac.indexOf("    verbs:", pods) + "    verbs:\n      - get\n      - list\n      - watch\n".length()));
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }
}
