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

/** Logs every pass with this replica's identity and the wall-clock time, for FailoverIT. */
@ApplicationScoped
@Controller(name = "ticks", namespace = "set-by-config")
public class ReconcileLog implements Reconciler<V1ConfigMap> {

    private static final Logger LOG = Logger.getLogger(ReconcileLog.class.getName());

    @Inject
    @ConfigProperty(name = "mooring.leader-election.identity")
    String identity;

    @Override
    public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
        LOG.info("RECONCILE " + identity + " " + System.currentTimeMillis() + " " + resource.getMetadata().getResourceVersion());
        return Result.done();
    }
}
