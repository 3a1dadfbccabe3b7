package dev.mooring.bench.mooring;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.bench.probe.Probe;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;

/** A no-op reconciler of ConfigMaps, for the heap a cached built-in object costs (its namespace is set by the harness). */
@ApplicationScoped
@Controller(name = "configmaps")
public class ConfigMapReconciler implements Reconciler<V1ConfigMap> {

    private final Probe probe = new Probe("configmap", "BENCH_CONFIGMAPS");

    @Override
    public Result reconcile(V1ConfigMap map, Context<V1ConfigMap> context) {
        probe.saw(map.getMetadata().getName(), null, null);
        return Result.done();
    }
}
