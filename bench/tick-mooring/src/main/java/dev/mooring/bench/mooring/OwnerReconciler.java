package dev.mooring.bench.mooring;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.bench.probe.Probe;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A no-op reconciler of Ticks that own ConfigMaps, for the heap the owned kind's cache costs:
 * every ConfigMap of the namespace, or with {@code mooring.controller.owners.owns-label-selector}
 * (set by the harness) the labelled children only. Its namespace is set by the harness.
 */
@ApplicationScoped
@Controller(name = "owners", owns = V1ConfigMap.class)
public class OwnerReconciler implements Reconciler<Tick> {

    private final Probe probe = new Probe("owner", "BENCH_OWNERS");

    @Override
    public Result reconcile(Tick tick, Context<Tick> context) {
        probe.saw(tick.getMetadata().getName(), null, null);
        return Result.done();
    }
}
