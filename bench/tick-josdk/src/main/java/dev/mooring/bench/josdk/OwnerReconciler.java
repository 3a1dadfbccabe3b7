package dev.mooring.bench.josdk;

import dev.mooring.bench.probe.Probe;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.List;

/**
 * A no-op reconciler of Ticks that own ConfigMaps: an informer event source of ConfigMaps in the
 * controller's namespaces, mapped to their owners, limited by the label selector the harness sets
 * ({@code MOORING_CONTROLLER_OWNERS_OWNS_LABEL_SELECTOR}, the variable Mooring's peer reads), as the
 * WebPage sample limits its dependents.
 */
@ControllerConfiguration(name = "owners")
public class OwnerReconciler implements Reconciler<Tick> {

    private final Probe probe = new Probe("owner", "BENCH_OWNERS");

    @Override
    public List<EventSource<?, Tick>> prepareEventSources(EventSourceContext<Tick> context) {
        InformerEventSourceConfiguration.Builder<ConfigMap> children = InformerEventSourceConfiguration.from(ConfigMap.class, Tick.class)
                .withNamespacesInheritedFromController();
        String selector = System.getenv("MOORING_CONTROLLER_OWNERS_OWNS_LABEL_SELECTOR");
        if (selector != null && !selector.isBlank()) {
            children.withLabelSelector(selector);
        }
        return List.of(new InformerEventSource<>(children.build(), context));
    }

    @Override
    public UpdateControl<Tick> reconcile(Tick tick, Context<Tick> context) {
        probe.saw(tick.getMetadata().getName(), null, null);
        return UpdateControl.noUpdate();
    }
}
