package dev.mooring.it.monitoring;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/** Fails every pass of a ConfigMap labelled {@code fail=true}, succeeds otherwise: for MonitoringIT's alerts. */
@ApplicationScoped
@Controller(name = "flaky")
public class FlakyController implements Reconciler<V1ConfigMap> {

    @Override
    public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
        Map<String, String> labels = resource.getMetadata().getLabels();
        if (labels != null && "true".equals(labels.get("fail"))) {
            throw new IllegalStateException("told to fail by its label");
        }
        return Result.done();
    }
}
