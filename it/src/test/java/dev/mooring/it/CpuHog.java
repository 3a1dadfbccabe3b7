package dev.mooring.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A bounded CPU hog: one busy process ({@code sha256sum /dev/zero}) per core, each ended by
 * {@code timeout} after at most {@code bound} even if the test's JVM dies, and by {@link #close()}.
 */
final class CpuHog implements AutoCloseable {

    private final List<Process> processes = new ArrayList<>();

    private CpuHog() {
    }

    /** {@code busy} busy processes, each for at most {@code bound}. */
    static CpuHog start(int busy, Duration bound) throws java.io.IOException {
        CpuHog hog = new CpuHog();
        for (int i = 0; i < busy; i++) {
            hog.processes.add(new ProcessBuilder("timeout", Long.toString(Math.max(1, bound.toSeconds())), "sha256sum", "/dev/zero")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start());
        }
        return hog;
    }

    /** One busy process per core of the machine, each for at most {@code bound}. */
    static CpuHog everyCore(Duration bound) throws java.io.IOException {
        return start(Runtime.getRuntime().availableProcessors(), bound);
    }

    @Override
    public void close() {
        for (Process process : processes) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
