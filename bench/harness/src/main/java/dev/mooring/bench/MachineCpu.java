package dev.mooring.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's CPU time from {@code /proc/stat}: how busy all its cores were between two readings. */
final class MachineCpu {

    private MachineCpu() {
    }

    /** The machine's CPU time so far, in clock ticks: {@code {busy, total}} over all cores. */
    static long[] read() throws IOException {
        return parse(Files.readAllLines(Path.of("/proc/stat")).get(0));
    }

    /**
     * {@code {busy, total}} of the aggregate line of {@code /proc/stat}
     * ({@code cpu user nice system idle iowait irq softirq steal ...}): idle and iowait are not busy.
     */
    static long[] parse(String cpuLine) {
        String[] fields = cpuLine.trim().split("\\s+");
        if (!fields[0].equals("cpu") || fields.length < 6) {
            throw new IllegalArgumentException("not the aggregate cpu line of /proc/stat: " + cpuLine);
        }
        long total = 0;
        for (int field = 1; field < Math.min(fields.length, 9); field++) { // guest time is counted in user already
            total += Long.parseLong(fields[field]);
        }
        long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
        return new long[] {total - idle, total};
    }

    /** The share of the CPU time between two readings that was busy, in percent. */
    static double busyPercent(long[] before, long[] after) {
        long total = after[1] - before[1];
        return total <= 0 ? 0 : 100.0 * (after[0] - before[0]) / total;
    }
}
