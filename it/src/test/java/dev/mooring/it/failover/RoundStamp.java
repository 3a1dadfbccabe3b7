package dev.mooring.it.failover;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * For ShardedReplicasIT: copies a ConfigMap's {@code data.round} into its annotation {@code seen}
 * with an update (a write the API server's audit log shows, by the replica's own user); a pass
 * over a ConfigMap that already shows its round sends nothing.
 */
@ApplicationScoped
@Controller(name = "stamps", namespace = "set-by-config")
public class RoundStamp implements Reconciler<V1ConfigMap> {

    @Override
    public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
        String round = resource.getData() == null ? null : resource.getData().get("round");
        Map<String, String> annotations = resource.getMetadata().getAnnotations();
        if (round != null && !round.equals(annotations == null ? null : annotations.get("seen"))) {
            resource.getMetadata().putAnnotationsItem("seen", round);
            context.client().update(resource);
        }
        return Result.done();
    }
}
