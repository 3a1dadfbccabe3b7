package dev.mooring.engine.admission;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.function.Executable;

/**
 * A bound on the CPU time a piece of work may use, for tests that guard against runaway loops:
 * unlike a wall-clock timeout it holds on a busy machine, where the work waits for a core but
 * does not use more of one. The work runs on a thread of its own; it fails with the work's own
 * failure, or with an AssertionError once its thread has used more than the bound.
 */
final class CpuBound {

    private CpuBound() {
    }

    static void assertWithin(Duration cpu, Executable work, String what) throws Throwable {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread worker = new Thread(() -> {
            try {
                work.execute();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "cpu-bound " + what);
        worker.setDaemon(true);
        worker.start();
        while (worker.isAlive()) {
            worker.join(20);
            long used = threads.getThreadCpuTime(worker.getId());
            if (used > cpu.toNanos()) {
                worker.interrupt();
                throw new AssertionError(what + ": more than " + cpu.toMillis() + " ms of CPU time (" + used / 1_000_000 + " ms)");
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
