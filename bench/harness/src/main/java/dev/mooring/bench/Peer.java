package dev.mooring.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One measured process of a peer: launched fresh, its output read for the lines the benchmark's
 * reconcilers print, its moments kept as milliseconds after the launch. Readiness is the peer's
 * own: Mooring's {@code /health/ready} answering 200, the Java Operator SDK's {@code start()}
 * returning (it has no health endpoint).
 */
final class Peer implements AutoCloseable {

    private static final Pattern MOMENT = Pattern.compile("BENCH (framework start|engine start|ready|at the gate \\w+) at (\\d+)");
    private static final Pattern RECONCILED = Pattern.compile("BENCH reconciled (\\w+) (\\d+) at (\\d+)");
    private static final Pattern FIRST = Pattern.compile("BENCH first (\\w+) at (\\d+)");
    private static final Pattern PASSED = Pattern.compile("BENCH passed (\\S+) at (\\d+)");
    private static final Pattern LATENCIES = Pattern.compile("BENCH latencies (\\w+) \\[([0-9,]*)\\](?: sent \\[([0-9,]*)\\])?");

    private final String name;
    private final Process process;
    private final List<String> stop;
    private final Map<String, String> environment;
    private final long launched;
    /** The {@code jcmd} of the peer's own JDK. */
    private final String jcmd;
    private final Map<String, Long> moments = new ConcurrentHashMap<>();
    private final Map<String, String> latencies = new ConcurrentHashMap<>();
    private final Map<String, String> sent = new ConcurrentHashMap<>();
    /** Object name to the epoch millisecond of its first pass of a loaded change ({@code BENCH_LOADED_ONLY}). */
    private final Map<String, Long> passed = new ConcurrentHashMap<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private volatile boolean ended;
    /** Killed with SIGKILL ({@link #kill9}): nothing left to stop. */
    private volatile boolean killed;

    private Peer(String name, List<String> command, Map<String, String> environment, List<String> stop, URI ready, Path jdk)
            throws IOException {
        this.name = name;
        this.jcmd = jdk.resolve("bin/jcmd").toString();
        this.stop = stop;
        this.environment = environment;
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        launched = System.currentTimeMillis();
        process = builder.start();
        Thread reader = new Thread(this::read, name + " output");
        reader.setDaemon(true);
        reader.start();
        if (ready != null) {
            Thread poller = new Thread(() -> pollReady(ready), name + " readiness");
            poller.setDaemon(true);
            poller.start();
        }
    }

    /** Launches {@code command}; {@code ready} is polled for readiness when not null, {@code stop} ends the process when not null. */
    static Peer launch(String name, List<String> command, Map<String, String> environment, List<String> stop, URI ready)
            throws IOException {
        return launch(name, command, environment, stop, ready, Path.of(System.getProperty("java.home")));
    }

    /** Like {@link #launch(String, List, Map, List, URI)}, for a process on the JDK at {@code jdk} (whose {@code jcmd} measures it). */
    static Peer launch(String name, List<String> command, Map<String, String> environment, List<String> stop, URI ready, Path jdk)
            throws IOException {
        return new Peer(name, command, environment, stop, ready, jdk);
    }

    String name() {
        return name;
    }

    /** Milliseconds from launch to the moment ({@code framework start}, {@code engine start}, {@code ready}, {@code reconciled tick}...). */
    long await(String moment, Duration timeout) throws InterruptedException {
        return awaitEpoch(moment, timeout) - launched;
    }

    /** Milliseconds from launch to the moment, if the peer reported it by now (some moments only one peer reports). */
    java.util.Optional<Long> moment(String moment) {
        return java.util.Optional.ofNullable(moments.get(moment)).map(epoch -> epoch - launched);
    }

    /** The epoch millisecond of the moment, as the peer printed it. */
    long awaitEpoch(String moment, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!moments.containsKey(moment)) {
            if (ended || System.nanoTime() > end) {
                throw new IllegalStateException(name + " did not report '" + moment + "' (" + (ended ? "it ended" : "timeout")
                        + "); its last lines:\n" + tail());
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
        return moments.get(moment);
    }

    /** SIGKILL to the JVM, as a node failure or an OOM kill would end it: no shutdown hook, no Lease release. */
    void kill9() {
        ProcessHandle.of(javaPid()).ifPresent(ProcessHandle::destroyForcibly);
        killed = true;
    }

    /** One measured change: the epoch millisecond its request left the loader, and the milliseconds from then to its pass. */
    record Change(long sent, long latency) {
    }

    /** The changes the peer measured for {@code kind}, printed after the marker change, forgetting them. */
    List<Change> awaitChanges(String kind, Duration timeout) throws InterruptedException {
        List<Long> measured = awaitLatencies(kind, timeout);
        String sentAt = sent.remove(kind);
        List<Long> times = sentAt == null || sentAt.isEmpty() ? List.of()
                : java.util.Arrays.stream(sentAt.split(",")).map(Long::valueOf).toList();
        if (times.size() != measured.size()) {
            throw new IllegalStateException(name + " printed " + measured.size() + " latencies of " + kind + " but " + times.size() + " send times");
        }
        return java.util.stream.IntStream.range(0, times.size()).mapToObj(i -> new Change(times.get(i), measured.get(i))).toList();
    }

    /** The latencies (ms) the peer printed for {@code kind} after the marker change, forgetting them. */
    List<Long> awaitLatencies(String kind, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!latencies.containsKey(kind)) {
            if (ended || System.nanoTime() > end) {
                throw new IllegalStateException(name + " printed no latencies of " + kind + "; its last lines:\n" + tail());
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
        String values = latencies.remove(kind);
        return values.isEmpty() ? List.of() : java.util.Arrays.stream(values.split(",")).map(Long::valueOf).toList();
    }

    /** Each object whose loaded change this peer passed, with the epoch millisecond of its first such pass. */
    Map<String, Long> passed() {
        return Map.copyOf(passed);
    }

    /** Forgets latencies printed so far. */
    void forgetLatencies() {
        latencies.clear();
        sent.clear();
    }

    /** The CPU time the JVM has used so far, all its threads. */
    java.time.Duration cpuTime() {
        return ProcessHandle.of(javaPid()).flatMap(handle -> handle.info().totalCpuDuration())
                .orElseThrow(() -> new IllegalStateException("the CPU time of " + name + " is not available"));
    }

    /** The process id of the JVM (Liberty's {@code server run} starts it as a child of a shell). */
    long javaPid() {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(process.toHandle()), process.descendants())
                .filter(handle -> handle.info().command().map(command -> command.endsWith("/java")).orElse(false))
                .findFirst().orElseThrow(() -> new IllegalStateException(name + " runs no java process")).pid();
    }

    private void read() {
        try (BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > 60) {
                        tail.removeFirst();
                    }
                }
                if (line.contains("CWWKF0011I")) { // Liberty's "server is ready to run a smarter planet"
                    moments.putIfAbsent("server started", System.currentTimeMillis());
                }
                if (line.contains("Initial list of ") && !line.contains(" complete: 0 objects")) { // Mooring's informer, at INFO
                    moments.putIfAbsent("listed", System.currentTimeMillis());
                }
                Matcher moment = MOMENT.matcher(line);
                if (moment.find()) {
                    moments.putIfAbsent(moment.group(1), Long.valueOf(moment.group(2)));
                }
                Matcher reconciled = RECONCILED.matcher(line);
                if (reconciled.find()) {
                    moments.putIfAbsent("reconciled " + reconciled.group(1), Long.valueOf(reconciled.group(3)));
                }
                Matcher first = FIRST.matcher(line);
                if (first.find()) {
                    moments.putIfAbsent("first " + first.group(1), Long.valueOf(first.group(2)));
                }
                Matcher pass = PASSED.matcher(line);
                if (pass.find()) {
                    passed.merge(pass.group(1), Long.valueOf(pass.group(2)), Math::min);
                }
                Matcher measured = LATENCIES.matcher(line);
                if (measured.find()) {
                    if (measured.group(3) != null) {
                        sent.put(measured.group(1), measured.group(3)); // before the latencies, which awaitChanges waits for
                    }
                    latencies.put(measured.group(1), measured.group(2));
                }
            }
        } catch (IOException e) {
            // the process ended
        } finally {
            ended = true;
        }
    }

    private void pollReady(URI ready) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest request = HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2)).build();
        while (!ended && !moments.containsKey("ready")) {
            try {
                if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    moments.putIfAbsent("ready", System.currentTimeMillis());
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                return;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private String tail() {
        synchronized (tail) {
            return String.join("\n", tail);
        }
    }

    @Override
    public void close() throws Exception {
        if (stop != null && !killed) {
            Harness.exec(stop, environment);
        }
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /**
     * The JVM's GC log so far, when it was launched with {@code -Xlog:gc:file=<folder>/gc-%p.log}
     * (see {@link Bench#gcLogging}).
     */
    GcLog gcLog(Path folder) throws java.io.IOException {
        return GcLog.read(folder.resolve("gc-" + javaPid() + ".log"));
    }

    /** A size the kernel reports of the JVM in {@code /proc/<pid>/status} ({@code VmRSS}, {@code VmHWM}: the peak), in bytes. */
    long memory(String field) throws java.io.IOException {
        for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/" + javaPid() + "/status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        throw new IllegalStateException("/proc/" + javaPid() + "/status of " + name + " has no " + field);
    }

    /** The first {@code lines} lines of the JVM's class histogram (live objects, after a full collection): where the heap goes. */
    String histogram(int lines) throws Exception {
        String histogram = Harness.exec(List.of(jcmd, Long.toString(javaPid()), "GC.class_histogram"), Map.of());
        return String.join("\n", histogram.lines().limit(lines).toList());
    }

    /**
     * The live objects now, in bytes, and the largest classes: one {@code jcmd GC.class_histogram}
     * (a full collection, then the histogram's total), quick enough to catch a drain of seconds.
     */
    String liveNow(int lines) throws Exception {
        String histogram = Harness.exec(List.of(jcmd, Long.toString(javaPid()), "GC.class_histogram"), Map.of());
        Matcher total = Pattern.compile("Total\\s+\\d+\\s+(\\d+)").matcher(histogram);
        return (total.find() ? Long.parseLong(total.group(1)) / (1024 * 1024) + " MiB live" : "no total")
                + "\n" + String.join("\n", histogram.lines().limit(lines).toList());
    }

    /** Heap in use after a full collection, in bytes, as {@code jcmd GC.heap_info} reports it. */
    long heapAfterGc() throws Exception {
        String pid = Long.toString(javaPid());
        Harness.exec(List.of(jcmd, pid, "GC.run"), Map.of());
        Harness.exec(List.of(jcmd, pid, "GC.run"), Map.of());
        String info = Harness.exec(List.of(jcmd, pid, "GC.heap_info"), Map.of());
        Matcher used = Pattern.compile("used (\\d+)K").matcher(info);
        if (!used.find()) {
            throw new IllegalStateException("jcmd GC.heap_info of " + name + " printed no heap use:\n" + info);
        }
        return Long.parseLong(used.group(1)) * 1024;
    }
}
