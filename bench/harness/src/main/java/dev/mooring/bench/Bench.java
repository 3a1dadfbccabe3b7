package dev.mooring.bench;

import java.util.List;

/**
 * The benchmark's command line: which benchmark, with its arguments (each a whole number, each
 * optional). Mooring and the Java Operator SDK run side by side on one local API server, fresh
 * processes, the two interleaved (the order alternating per run); what is measured, and from when,
 * is written in {@code docs/benchmarks.md}. Every benchmark prints its tables and writes them to
 * {@code bench/harness/target/bench/results*.md}, and fails when a peer does not do what it should.
 *
 * <pre>
 *   [N runs seconds rate]         {@link Comparison}: drains, heaps, latencies, I/O-bound passes, admission (5000 3 10 200)
 *   start [N runs]                {@link StartUp}: the start-up measures only (5000 5)
 *   jdks [N runs]                 {@link Jdks}: start-up and idle heap on each JDK of -Dbench.jdks (5000 3)
 *   features [runs]               {@link Features}: Liberty's idle heap by feature (3)
 *   deployment [runs]             {@link Deployment}: what the operator's EAR adds to the idle heap (3)
 *   traces [N runs]               {@link Traces}: what tracing costs when it is off (5000 3)
 *   scale [N runs seconds rate]   {@link Scale}: many objects, first syncs and fresh changes meanwhile (100000 1 10 200)
 *   failover [N runs]             {@link Failover}: a leader killed, its standby takes over (5000 3)
 *   shards [N runs]               {@link Shards}: 1, 2 and 4 sharded replicas (10000 1)
 *   owned [N runs]                {@link OwnedChildren}: N owned children among 10 N others, with and without a selector (1000 3)
 *   writes [N runs S R]           {@link OwnWrites}: a reconciler reading its own writes, read-your-writes on and off (1000 3 10 100)
 * </pre>
 */
public final class Bench {

    /** The benchmarks' names, as the first argument. */
    static final List<String> NAMES = List.of("start", "jdks", "features", "deployment", "traces", "scale", "failover", "shards", "owned",
            "writes");

    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        of(args).run();
    }

    /**
     * The benchmark the arguments name, with their values or the defaults.
     *
     * @throws IllegalArgumentException naming an unknown benchmark or an argument that is no whole number
     */
    static Harness of(String[] args) {
        boolean named = args.length > 0 && !args[0].matches("\\d+");
        String name = named ? args[0] : "";
        String[] rest = named ? java.util.Arrays.copyOfRange(args, 1, args.length) : args;
        return switch (name) {
            case "" -> new Comparison(argument(rest, 0, 5000), argument(rest, 1, 3), argument(rest, 2, 10), argument(rest, 3, 200));
            case "start" -> new StartUp(argument(rest, 0, 5000), argument(rest, 1, 5), 0, 0);
            case "jdks" -> new Jdks(argument(rest, 0, 5000), argument(rest, 1, 3), 0, 0);
            case "features" -> new Features(0, argument(rest, 0, 3), 0, 0);
            case "deployment" -> new Deployment(0, argument(rest, 0, 3), 0, 0);
            case "traces" -> new Traces(argument(rest, 0, 5000), argument(rest, 1, 3), 0, 0);
            case "scale" -> new Scale(argument(rest, 0, 100_000), argument(rest, 1, 1), argument(rest, 2, 10), argument(rest, 3, 200));
            case "failover" -> new Failover(argument(rest, 0, 5000), argument(rest, 1, 3), 0, 0);
            case "shards" -> new Shards(argument(rest, 0, 10_000), argument(rest, 1, 1), 0, 0);
            case "owned" -> new OwnedChildren(argument(rest, 0, 1000), argument(rest, 1, 3), 0, 0);
            case "writes" -> new OwnWrites(argument(rest, 0, 1000), argument(rest, 1, 3), argument(rest, 2, 10), argument(rest, 3, 100));
            default -> throw new IllegalArgumentException("unknown benchmark '" + name + "'; one of " + String.join(", ", NAMES)
                    + ", or none for the comparison");
        };
    }

    private static int argument(String[] args, int index, int otherwise) {
        if (args.length <= index) {
            return otherwise;
        }
        try {
            return Integer.parseInt(args[index]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + args[index] + "' is not a whole number (argument " + (index + 1) + ")");
        }
    }
}
