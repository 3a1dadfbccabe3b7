package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.api.Controller;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerOptions;
import dev.mooring.engine.model.StagePlan;
import dev.mooring.examples.snippets.ExternalBucket;
import dev.mooring.examples.snippets.Widget;
import dev.mooring.examples.snippets.WidgetController;
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
}
