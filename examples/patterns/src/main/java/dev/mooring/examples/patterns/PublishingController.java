package dev.mooring.examples.patterns;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Publishes each ConfigMap labelled {@value #LABEL}{@code =true} through the leader's {@link LeaderSession}. */
@ApplicationScoped
@Controller(name = "publisher", labelSelector = PublishingController.LABEL + "=true")
public class PublishingController implements Reconciler<V1ConfigMap> {

    /** The label of the ConfigMaps to publish. */
    public static final String LABEL = "patterns.mooring.dev/publish";

    @Inject
    LeaderSession session;

    @Override
    public Result reconcile(V1ConfigMap configMap, Context<V1ConfigMap> context) {
        session.require().publish(context.key().toString(), PublishingController::slowCall);
        return Result.done();
    }

    /** The external call takes a while, as a network call does. */
    private static void slowCall() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
