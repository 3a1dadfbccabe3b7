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
 * Keeps, for every Greeting, a ConfigMap of the same name holding its message, and reports the
 * Greeting Ready. The ConfigMap is owned by the Greeting: deleting the Greeting deletes it, and
 * editing it by hand is undone on the next pass.
 */
@ApplicationScoped
@Controller(name = "greetings", owns = V1ConfigMap.class)
public class GreetingReconciler implements Reconciler<Greeting> {

    @Override
    public Result reconcile(Greeting greeting, Context<Greeting> context) {
        context.ensure(new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta())
                .data(Map.of("message", greeting.getSpec().message, "language", greeting.getSpec().language)));
        context.condition("Ready", "True", "ConfigMapReady", "ConfigMap " + greeting.getMetadata().getName() + " holds the message");
        return Result.done();
    }
}
