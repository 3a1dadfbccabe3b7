package dev.mooring.it.stale;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.api.client.KubernetesException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * For StaleLeaderIT: a pass that works for 8 s ignoring interrupts, then creates a ConfigMap
 * named after this replica (a create carries no resourceVersion guard), so that a write of a
 * replica paused mid-pass shows.
 */
@ApplicationScoped
@Controller(name = "slow-creator", namespace = "set-by-config", labelSelector = "stale=true")
public class SlowCreator implements Reconciler<V1ConfigMap> {

    private static final Logger LOG = Logger.getLogger(SlowCreator.class.getName());

    @Inject
    @ConfigProperty(name = "mooring.leader-election.identity")
    String identity;

    @Override
    public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
        LOG.info("PASS START " + identity);
        // eight seconds of work that ignores interrupts, as much real code does
        long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(8);
        while (System.nanoTime() < end) {
            try {
                Thread.sleep(Math.max(1, java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
            } catch (InterruptedException ignored) {
                // carries on
            }
        }
        Thread.interrupted();
        // the create is the first request after the work: a read before it could instead be cut short by the
        // controller stopping when this replica's elector notices the lost Lease, and the write guard would go untested
        try {
            context.client().create(new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                    .metadata(new V1ObjectMeta().name("written-by-" + identity))
                    .data(Map.of("at", Long.toString(System.currentTimeMillis()))));
        } catch (KubernetesException e) {
            if (e.code() != 409) {
                throw e;
            }
        }
        LOG.info("PASS END " + identity);
        return Result.done();
    }
}
