package dev.mooring.stack;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster a developer names instead of Mooring's local API server (on a machine where it
 * cannot be built, say): {@value #VARIABLE}, a kubeconfig file, for every Maven goal and for the
 * test kit alike. Each also keeps a variable of its own, read when {@value #VARIABLE} is not set:
 * {@code KUBECONFIG} for the goals, {@code MOORING_TEST_KUBECONFIG} for the test kit (which never
 * reads {@code KUBECONFIG}, so that tests do not run in the cluster {@code kubectl} points at).
 */
public final class GivenCluster {

    /** The variable every tool reads first. */
    public static final String VARIABLE = "MOORING_KUBECONFIG";

    private GivenCluster() {
    }

    /**
     * The kubeconfig named by {@value #VARIABLE}, else by {@code fallback}; empty when neither
     * is set (blank counts as unset).
     */
    public static Optional<Path> kubeconfig(Map<String, String> environment, String fallback) {
        for (String name : new String[] {VARIABLE, fallback}) {
            String value = name == null ? null : environment.get(name);
            if (value != null && !value.isBlank()) {
                return Optional.of(Path.of(value.split(java.io.File.pathSeparator)[0]));
            }
        }
        return Optional.empty();
    }
}
