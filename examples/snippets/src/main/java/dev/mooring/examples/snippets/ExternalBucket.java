package dev.mooring.examples.snippets;

import dev.mooring.api.Cleanup;
import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** docs/guide/writing-safely.md, "Finalizers and cleanup": something outside Kubernetes that each labelled ConfigMap owns. */
@ApplicationScoped
@Controller(name = "buckets", labelSelector = "example.com/bucket=true", finalizer = "example.com/bucket")
public class ExternalBucket implements Reconciler<V1ConfigMap>, Cleanup<V1ConfigMap> {

    /** Stands in for an external API; replace it with a durable one. */
    private final Set<String> buckets = ConcurrentHashMap.newKeySet();

    @Override
    public Result reconcile(V1ConfigMap configMap, Context<V1ConfigMap> context) {
        // Runs only once the finalizer is persisted: the bucket can never be orphaned.
        buckets.add(context.key().toString());
        return Result.requeueAfter(Duration.ofMinutes(10)); // periodic repair of external drift
    }

    @Override
    public void cleanup(V1ConfigMap configMap, Context<V1ConfigMap> context) {
        buckets.remove(context.key().toString()); // idempotent: "already gone" is success
    }
}
