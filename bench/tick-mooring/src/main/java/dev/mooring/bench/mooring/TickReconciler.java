package dev.mooring.bench.mooring;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.bench.probe.Probe;
import jakarta.enterprise.context.ApplicationScoped;

/** Does nothing but count and time: the harness reads the lines its {@link Probe} prints. */
@ApplicationScoped
@Controller(name = "ticks")
public class TickReconciler implements Reconciler<Tick> {

    private final Probe probe = new Probe("tick", "BENCH_TICKS");

    @Override
    public Result reconcile(Tick tick, Context<Tick> context) {
        probe.saw(tick.getMetadata().getName(), tick.spec == null ? null : tick.spec.value, tick.spec == null ? null : tick.spec.sent);
        return Result.done();
    }
}
