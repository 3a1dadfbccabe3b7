package dev.mooring.it;

import dev.mooring.api.Context;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A reconciler that records what it saw: passes per key, the data of each pass, and overlapping passes. */
class Recorder implements Reconciler<V1ConfigMap> {

    final Map<ObjectKey, List<Map<String, String>>> passes = new ConcurrentHashMap<>();
    final Map<ObjectKey, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    final AtomicInteger overlaps = new AtomicInteger();
    volatile long workMillis;

    @Override
    public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) throws Exception {
        ObjectKey key = context.key();
        AtomicInteger running = inFlight.computeIfAbsent(key, k -> new AtomicInteger());
        if (running.incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
        try {
            passes.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>())
                    .add(resource.getData() == null ? Map.of() : Map.copyOf(resource.getData()));
            act(resource, context);
            if (workMillis > 0) {
                Thread.sleep(workMillis);
            }
            return Result.done();
        } finally {
            running.decrementAndGet();
        }
    }

    /** Extra work of a pass, for subclasses. */
    void act(V1ConfigMap resource, Context<V1ConfigMap> context) throws Exception {
    }

    int passCount(ObjectKey key) {
        List<Map<String, String>> seen = passes.get(key);
        return seen == null ? 0 : seen.size();
    }

    Map<String, String> lastData(ObjectKey key) {
        List<Map<String, String>> seen = passes.get(key);
        return seen == null || seen.isEmpty() ? null : seen.get(seen.size() - 1);
    }
}
