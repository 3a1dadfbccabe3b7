package dev.mooring.it.nodes;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1Node;
import jakarta.enterprise.context.ApplicationScoped;

/** A controller of a kind the testbed does not serve (Node): it must fail visibly. */
@ApplicationScoped
@Controller(name = "nodes")
public class NodeProbe implements Reconciler<V1Node> {

    @Override
    public Result reconcile(V1Node resource, Context<V1Node> context) {
        return Result.done();
    }
}
