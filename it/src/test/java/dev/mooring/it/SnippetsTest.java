package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.api.Controller;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerOptions;
import dev.mooring.engine.model.StagePlan;
import dev.mooring.examples.snippets.ExternalBucket;
import dev.mooring.examples.snippets.Widget;
import dev.mooring.examples.snippets.WidgetController;
import dev.mooring.examples.snippets.WidgetPolicy;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Service;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The user guide's controllers pass the checks a deployment makes (they are compiled, not deployed). */
class SnippetsTest {

    @Test
    void theWidgetControllerIsAValidStagedController() {
        StagePlan plan = StagePlan.of(WidgetController.class, Widget.class);
        assertEquals(List.of("ConfigReady", "DeploymentReady", "ServiceReady"),
                plan.stages().stream().map(StagePlan.StageSpec::name).toList());
        assertEquals(Set.of("ConfigReady", "DeploymentReady", "ServiceReady", "Ready"), plan.managedConditions());
        ControllerDefinition definition = ControllerOptions.resolve(WidgetController.class,
                WidgetController.class.getAnnotation(Controller.class), Widget.class, key -> Optional.empty());
        assertEquals(List.of(V1ConfigMap.class, V1Deployment.class, V1Service.class), definition.owns());
    }

    @Test
    void theBucketControllerDeclaresItsFinalizer() {
        ControllerDefinition definition = ControllerOptions.resolve(ExternalBucket.class,
                ExternalBucket.class.getAnnotation(Controller.class), V1ConfigMap.class, true, key -> Optional.empty());
        assertEquals("example.com/bucket", definition.finalizer());
    }

    @Test
    void theWidgetPolicyRefusesAWidgetWithoutAMessageOrWithTooManyReplicas() throws Exception {
        WidgetPolicy policy = new WidgetPolicy();
        policy.checkSpec(dev.mooring.test.TestAdmissionRequest.create(widget("hello", 3)));
        policy.checkSpec(dev.mooring.test.TestAdmissionRequest.create(widget("hello", null)));
        dev.mooring.api.admission.AdmissionDenied noMessage = org.junit.jupiter.api.Assertions.assertThrows(
                dev.mooring.api.admission.AdmissionDenied.class,
                () -> policy.checkSpec(dev.mooring.test.TestAdmissionRequest.create(widget(" ", 1))));
        assertEquals("spec.message is required", noMessage.getMessage());
        dev.mooring.api.admission.AdmissionDenied tooMany = org.junit.jupiter.api.Assertions.assertThrows(
                dev.mooring.api.admission.AdmissionDenied.class,
                () -> policy.checkSpec(dev.mooring.test.TestAdmissionRequest.create(widget("hello", 11))));
        assertEquals("spec.replicas must be 1 to 10, got 11", tooMany.getMessage());
    }

    private static Widget widget(String message, Integer replicas) {
        Widget widget = new Widget();
        widget.setMetadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().namespace("shop").name("w"));
        Widget.Spec spec = new Widget.Spec();
        spec.message = message;
        spec.replicas = replicas;
        widget.setSpec(spec);
        return widget;
    }
}
