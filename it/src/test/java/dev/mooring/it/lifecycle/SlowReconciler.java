package dev.mooring.it.lifecycle;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.logging.Logger;

/** A pass that ignores interrupts for 6 s, for LeaderElectionContainerIT to lose leadership during it. */
@ApplicationScoped
@Controller(name = "slow", labelSelector = "slow=true")
public class SlowReconciler implements Reconciler<V1ConfigMap> {

    private static final Logger LOG = Logger.getLogger(SlowReconciler.class.getName());

    @Override
    public Result reconcile(V1ConfigMap object, Context<V1ConfigMap> context) {
        LOG.info("SLOW START " + object.getMetadata().getName());
        long end = System.nanoTime() + 6_000_000_000L;
        boolean interrupted = false;
        while (System.nanoTime() < end) {
            try {
                Thread.sleep(Math.max(1, (end - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        LOG.info("SLOW END " + object.getMetadata().getName() + (interrupted ? " (interrupted)" : ""));
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return Result.done();
    }
}
