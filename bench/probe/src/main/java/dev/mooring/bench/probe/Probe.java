package dev.mooring.bench.probe;

import java.util.BitSet;

/**
 * What a benchmark reconciler reports, the same on both peers: one line at its first pass, one
 * when it has seen all expected objects, and the update latencies it measured when it sees the marker value.
 *
 * <p>A change the loader sends carries {@code sent}, the epoch millisecond at which its request
 * left the loader; the latency of a pass is the time from then to the pass. A pass of an
 * object whose value is {@link #MARKER} prints the latencies measured so far and forgets them (its
 * {@code sent} is minus the epoch millisecond it was sent at). Changes and markers sent before the
 * probe was made (left by an earlier process) are ignored.
 */
public final class Probe {

    /** The value of the change that asks for the latencies. */
    public static final int MARKER = -1;

    private final String kind;
    private final int expected;
    /**
     * The numbers of the objects seen (the harness names them a letter and a number): a bit each,
     * so that the probe adds next to nothing to the heap per object that the benchmark measures.
     */
    private final BitSet seen = new BitSet();
    /** Objects the harness did not make (not named so), if any. */
    private final java.util.Set<String> seenOthers = new java.util.HashSet<>();
    private int seenCount;
    private final java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean();
    private final StringBuffer latencies = new StringBuffer();
    /** The {@code sent} of each latency, in the same order. */
    private final StringBuffer sentTimes = new StringBuffer();
    /** Changes and markers sent before the probe was made are a previous process's: not counted. */
    private final long created = System.currentTimeMillis();
    private final long waitMillis = Long.parseLong(System.getenv().getOrDefault("BENCH_WAIT_MS", "0"));
    /**
     * With {@code BENCH_GATE} (a file): every pass first waits until the file exists, then
     * prints {@code BENCH passed <name> at <epoch ms>}: the harness opens the gate once several
     * replicas have settled, and measures how fast they pass everything together; or once it has
     * measured the heap while every object waits. The first pass to wait prints
     * {@code BENCH at the gate <kind> at <epoch ms>}.
     */
    private final java.nio.file.Path gate = System.getenv("BENCH_GATE") == null ? null : java.nio.file.Path.of(System.getenv("BENCH_GATE"));
    private volatile boolean gateOpen;
    private final java.util.concurrent.atomic.AtomicBoolean reachedGate = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * @param kind the word the lines carry ({@code tick}, {@code configmap})
     * @param variable the environment variable with the number of objects to expect
     */
    public Probe(String kind, String variable) {
        this.kind = kind;
        this.expected = Integer.parseInt(System.getenv().getOrDefault(variable, "0"));
    }

    /** Whether this pass is the first of {@code name} and completes the expected count. */
    private boolean firstSight(String name) {
        int number = name.length() > 1 && name.substring(1).chars().allMatch(Character::isDigit) && name.length() < 11
                ? Integer.parseInt(name.substring(1)) : -1;
        synchronized (seen) {
            if (number < 0 ? !seenOthers.add(name) : seen.get(number)) {
                return false;
            }
            if (number >= 0) {
                seen.set(number);
            }
            return ++seenCount == expected;
        }
    }

    /**
     * One pass of the object {@code name} with these spec fields (either may be null). With
     * {@code BENCH_WAIT_MS} set, the pass first waits that long, as a reconciler waiting on I/O.
     */
    public void saw(String name, Integer value, Long sent) {
        if (gate != null && !awaitGate()) {
            return;
        }
        if (waitMillis > 0) {
            try {
                Thread.sleep(waitMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        long now = System.currentTimeMillis();
        if (gate != null) {
            System.out.println("BENCH passed " + name + " at " + now);
        }
        if (first.compareAndSet(false, true)) {
            System.out.println("BENCH first " + kind + " at " + now);
        }
        if (firstSight(name)) {
            System.out.println("BENCH reconciled " + kind + " " + expected + " at " + now);
        }
        if (value != null && value == MARKER && sent != null && -sent >= created) {
            String measured;
            String sentAt;
            synchronized (latencies) {
                measured = latencies.toString();
                sentAt = sentTimes.toString();
                latencies.setLength(0);
                sentTimes.setLength(0);
            }
            System.out.println("BENCH latencies " + kind + " [" + measured + "] sent [" + sentAt + "]");
        } else if (sent != null && sent >= created) {
            synchronized (latencies) {
                String separator = latencies.length() == 0 ? "" : ",";
                latencies.append(separator).append(now - sent);
                sentTimes.append(separator).append(sent);
            }
        }
    }

    /** Waits until the gate file exists; false if interrupted. */
    private boolean awaitGate() {
        if (!gateOpen && reachedGate.compareAndSet(false, true)) {
            System.out.println("BENCH at the gate " + kind + " at " + System.currentTimeMillis());
        }
        while (!gateOpen) {
            if (java.nio.file.Files.exists(gate)) {
                gateOpen = true;
            } else {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }
}
