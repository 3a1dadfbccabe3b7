package dev.mooring.it.failover;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Logs every pass with this replica's identity, the wall-clock time, the resourceVersion and the name, for FailoverIT and ShardedReplicasIT. */
@ApplicationScoped
@Controller(name = "ticks", namespace = "set-by-config")
public class ReconcileLog implements Reconciler<V1ConfigMap> {

    private static final Logger LOG = Logger.getLogger(ReconcileLog.class.getName());

    @Inject
    @ConfigProperty(name = "mooring.leader-election.identity")
    String identity;

    @Override
    public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
        LOG.info("RECONCILE " + identity + " " + System.currentTimeMillis() + " " + resource.getMetadata().getResourceVersion() + " "
                + resource.getMetadata().getName());
        return Result.done();
    }
}
