package dev.mooring.bench.josdk;

import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Does nothing but count: once it has seen every object, it prints one line the harness reads. */
@ControllerConfiguration
public class TickReconciler implements Reconciler<Tick> {

    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final int expected;

    TickReconciler(int expected) {
        this.expected = expected;
    }

    @Override
    public UpdateControl<Tick> reconcile(Tick tick, Context<Tick> context) {
        if (seen.add(tick.getMetadata().getNamespace() + "/" + tick.getMetadata().getName()) && seen.size() == expected) {
            System.out.println("BENCH reconciled " + expected + " at " + System.currentTimeMillis());
        }
        return UpdateControl.noUpdate();
    }
}
