package dev.mooring.bench.mooring;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.bench.probe.Probe;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A reconciler that writes and reads its own writes at once (the read-your-writes benchmark): each
 * Tick is counted up to {@code BENCH_COUNT_TO} in its annotation, one guarded update (a PUT with
 * the resourceVersion read) per pass, the next pass requested at once; each change the loader
 * sends is acknowledged in another annotation the same way. A pass that reads a copy older than
 * its own last write sends an update the API server refuses (409) and is retried. Its namespace is
 * set by the harness ({@code bench-empty} otherwise).
 */
@ApplicationScoped
@Controller(name = "counters")
public class CounterReconciler implements Reconciler<Tick> {

    static final String COUNT = "bench.mooring.dev/count";
    static final String ACKNOWLEDGED = "bench.mooring.dev/acknowledged";

    private final Probe counted = new Probe("counter", "BENCH_COUNTERS");
    /** The latencies of the loader's changes, at the first pass that sees each; it counts no object. */
    private final Probe changes = new Probe("acknowledged", "BENCH_NONE");
    private final int target = Integer.parseInt(System.getenv().getOrDefault("BENCH_COUNT_TO", "5"));
    /** The last change of each tick a pass saw, so that its latency is taken once. */
    private final Map<String, Long> seenChanges = new ConcurrentHashMap<>();

    @Override
    public Result reconcile(Tick tick, Context<Tick> context) {
        String name = tick.getMetadata().getName();
        Integer value = tick.spec == null ? null : tick.spec.value;
        Long sent = tick.spec == null ? null : tick.spec.sent;
        if (value != null && value == Probe.MARKER) {
            changes.saw(name, value, sent); // prints the latencies so far
            return Result.done();
        }
        if (sent != null && !sent.equals(seenChanges.put(name, sent))) {
            changes.saw(name, value, sent);
        }
        Map<String, String> annotations = tick.getMetadata().getAnnotations() == null ? Map.of() : tick.getMetadata().getAnnotations();
        int count = Integer.parseInt(annotations.getOrDefault(COUNT, "0"));
        String change = sent == null ? null : sent.toString();
        if (count >= target && Objects.equals(change, annotations.get(ACKNOWLEDGED))) {
            counted.saw(name, null, null);
            return Result.done();
        }
        tick.getMetadata().putAnnotationsItem(COUNT, Integer.toString(Math.min(count + 1, target)));
        if (change != null) {
            tick.getMetadata().putAnnotationsItem(ACKNOWLEDGED, change);
        }
        context.client().update(tick); // guarded by the resourceVersion read: a stale copy is refused
        return Result.requeueAfter(Duration.ZERO);
    }
}
