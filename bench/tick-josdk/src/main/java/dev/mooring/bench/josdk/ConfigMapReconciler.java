package dev.mooring.bench.josdk;

import dev.mooring.bench.probe.Probe;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/** A no-op reconciler of ConfigMaps, for the heap a cached built-in object costs (its namespace is set by the harness). */
@ControllerConfiguration(name = "configmaps")
public class ConfigMapReconciler implements Reconciler<ConfigMap> {

    private final Probe probe = new Probe("configmap", "BENCH_CONFIGMAPS");

    @Override
    public UpdateControl<ConfigMap> reconcile(ConfigMap map, Context<ConfigMap> context) {
        probe.saw(map.getMetadata().getName(), null, null);
        return UpdateControl.noUpdate();
    }
}
