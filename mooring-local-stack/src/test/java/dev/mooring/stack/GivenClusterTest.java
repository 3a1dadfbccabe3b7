package dev.mooring.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GivenClusterTest {

    @Test
    void mooringsVariableComesFirstThenEachToolsOwn() {
        assertEquals(Optional.of(Path.of("/k/kind")), GivenCluster.kubeconfig(Map.of("MOORING_KUBECONFIG", "/k/kind",
                "KUBECONFIG", "/k/prod"), "KUBECONFIG"));
        assertEquals(Optional.of(Path.of("/k/prod")), GivenCluster.kubeconfig(Map.of("KUBECONFIG", "/k/prod"), "KUBECONFIG"));
        assertEquals(Optional.empty(), GivenCluster.kubeconfig(Map.of("KUBECONFIG", "/k/prod"), "MOORING_TEST_KUBECONFIG"),
                "the test kit never reads KUBECONFIG");
        assertEquals(Optional.empty(), GivenCluster.kubeconfig(Map.of("MOORING_KUBECONFIG", " "), "KUBECONFIG"), "blank is unset");
        assertEquals(Optional.of(Path.of("/k/a")), GivenCluster.kubeconfig(Map.of("KUBECONFIG", "/k/a" + java.io.File.pathSeparator
                + "/k/b"), "KUBECONFIG"), "the first file of a list, as kubectl's first");
    }
}
