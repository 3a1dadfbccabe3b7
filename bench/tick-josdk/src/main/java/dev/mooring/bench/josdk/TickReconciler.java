package dev.mooring.bench.josdk;

import dev.mooring.bench.probe.Probe;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/** Does nothing but count and time: the harness reads the lines its {@link Probe} prints. */
@ControllerConfiguration(name = "ticks")
public class TickReconciler implements Reconciler<Tick> {

    private final Probe probe = new Probe("tick", "BENCH_TICKS");

    @Override
    public UpdateControl<Tick> reconcile(Tick tick, Context<Tick> context) {
        probe.saw(tick.getMetadata().getName(), tick.getSpec() == null ? null : tick.getSpec().value,
                tick.getSpec() == null ? null : tick.getSpec().sent);
        return UpdateControl.noUpdate();
    }
}
