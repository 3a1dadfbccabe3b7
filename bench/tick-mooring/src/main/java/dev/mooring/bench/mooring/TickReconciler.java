package dev.mooring.bench.mooring;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Does nothing but count: once it has seen every object, it prints one line the harness reads. */
@ApplicationScoped
@Controller(name = "ticks")
public class TickReconciler implements Reconciler<Tick> {

    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final int expected = Integer.parseInt(System.getenv().getOrDefault("BENCH_N", "1"));

    @Override
    public Result reconcile(Tick tick, Context<Tick> context) {
        if (seen.add(tick.getMetadata().getNamespace() + "/" + tick.getMetadata().getName()) && seen.size() == expected) {
            System.out.println("BENCH reconciled " + expected + " at " + System.currentTimeMillis());
        }
        return Result.done();
    }
}
