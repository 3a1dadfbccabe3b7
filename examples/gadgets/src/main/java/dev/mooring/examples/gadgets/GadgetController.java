package dev.mooring.examples.gadgets;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/** Keeps a ConfigMap with each gadget's size and reports it Ready. */
@ApplicationScoped
@Controller(name = "gadgets", owns = V1ConfigMap.class)
public class GadgetController implements Reconciler<Gadget> {

    @Override
    public Result reconcile(Gadget gadget, Context<Gadget> context) {
        context.ensure(new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta())
                .data(Map.of("size", String.valueOf(gadget.getSpec().size))));
        context.condition("Ready", "True", "Reconciled", "size " + gadget.getSpec().size);
        return Result.done();
    }
}
