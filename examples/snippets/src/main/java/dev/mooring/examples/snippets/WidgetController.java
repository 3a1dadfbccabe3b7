package dev.mooring.examples.snippets;

import dev.mooring.api.Case;
import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.EventType;
import dev.mooring.api.Otherwise;
import dev.mooring.api.Stage;
import dev.mooring.api.Staged;
import dev.mooring.api.Wait;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * docs/guide/writing-safely.md, "Children", "Status, conditions and Events" and "Stages and cases": one custom resource
 * driving a ConfigMap, a Deployment and a Service through three stages.
 */
@ApplicationScoped
@Controller(name = "widgets", owns = {V1ConfigMap.class, V1Deployment.class, V1Service.class})
public class WidgetController implements Staged<Widget> {

    @Stage(value = "ConfigReady", order = 1)
    void config(Widget widget, Context<Widget> context) {
        // ensure: created with a controller owner reference, or merged (maps merge, lists replace)
        context.ensure(new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().name(widget.getMetadata().getName() + "-config"))
                .data(Map.of("message", widget.getSpec().message)));
        context.updateStatus(w -> {
            if (w.getStatus() == null) {
                w.setStatus(new Widget.Status());
            }
            w.getStatus().observedMessage = widget.getSpec().message;
        });
    }

    @Stage(value = "DeploymentReady", order = 2)
    void deployment(Widget widget, Context<Widget> context) {
        String name = widget.getMetadata().getName();
        int replicas = widget.getSpec().replicas == null ? 1 : widget.getSpec().replicas;
        // apply: server-side apply, which leaves the fields the server defaults alone
        V1Deployment live = context.apply(new V1Deployment().apiVersion("apps/v1").kind("Deployment")
                .metadata(new V1ObjectMeta().name(name))
                .spec(new V1DeploymentSpec().replicas(replicas)
                        .selector(new V1LabelSelector().matchLabels(Map.of("widget", name)))
                        .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("widget", name)))
                                .spec(new V1PodSpec().containers(List.of(new V1Container().name("app").image("nginx:1.27")))))));
        int ready = live.getStatus() == null || live.getStatus().getReadyReplicas() == null ? 0 : live.getStatus().getReadyReplicas();
        if (ready < replicas) {
            throw new Wait("DeploymentNotReady", ready + " of " + replicas + " replicas ready", Duration.ofSeconds(30));
        }
    }

    @Stage(value = "ServiceReady", order = 3)
    @Case(when = "exposed", priority = 1)
    void service(Widget widget, Context<Widget> context) {
        String name = widget.getMetadata().getName();
        context.apply(new V1Service().apiVersion("v1").kind("Service").metadata(new V1ObjectMeta().name(name))
                .spec(new V1ServiceSpec().selector(Map.of("widget", name)).ports(List.of(new V1ServicePort().port(80)))));
        context.event(EventType.NORMAL, "Exposed", "service " + name + " on port 80");
    }

    @Stage(value = "ServiceReady", order = 3)
    @Otherwise
    void notExposed(Widget widget, Context<Widget> context) {
        context.prune(V1Service.class, List.of()); // guarded deletes of the Services this Widget controls
    }

    boolean exposed(Widget widget) {
        return widget.getSpec().exposed;
    }
}
