package ${package};

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Keeps, for every ${kind}, a ConfigMap of the same name holding its message, and reports the
 * ${kind} Ready. The ConfigMap is owned by the ${kind}: deleting the ${kind} deletes it, and
 * editing it by hand is undone on the next pass.
 */
@ApplicationScoped
@Controller(name = "${kind.toLowerCase()}s", owns = V1ConfigMap.class)
public class ${kind}Reconciler implements Reconciler<${kind}> {

    @Override
    public Result reconcile(${kind} resource, Context<${kind}> context) {
        context.ensure(new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta())
                .data(Map.of("message", resource.getSpec().message, "language", resource.getSpec().language)));
        context.condition("Ready", "True", "ConfigMapReady", "ConfigMap " + resource.getMetadata().getName() + " holds the message");
        return Result.done();
    }
}
