package dev.mooring.engine.admission;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerateWebhooksTest {

    @Controller(namespace = "widgets-live")
    public static class WidgetController implements Reconciler<Widget> {
        @Override
        public Result reconcile(Widget widget, Context<Widget> context) {
            return Result.done();
        }
    }

    /** A controller with a finalizer and a cleanup, the common companion of a validator. */
    @Controller(namespace = "widgets-live", finalizer = "example.com/cleanup")
    public static class CleaningWidgetController implements Reconciler<Widget>, dev.mooring.api.Cleanup<Widget> {
        @Override
        public Result reconcile(Widget widget, Context<Widget> context) {
            return Result.done();
        }

        @Override
        public void cleanup(Widget widget, Context<Widget> context) {
        }
    }

    /** A controller whose Reconciler interface comes from its superclass. */
    @Controller(namespace = "widgets-inherited")
    public static class InheritingWidgetController extends WidgetController {
    }

    @TempDir
    Path dir;

    /** The regression: a validator passed with a controller that implements Cleanup. */
    @Test
    void aControllerWithCleanupGivesItsScope() throws Exception {
        Path ca = Files.write(dir.resolve("ca.crt"), WebhookConfigurationsTest.CA);
        for (Class<?> controller : List.of(CleaningWidgetController.class, InheritingWidgetController.class)) {
            String yaml = GenerateWebhooks.generate(List.of("--name", "widgets.example.com", "--service", "widgets", "--namespace",
                    "operators", WebhookConfigurationsTest.Policies.class.getName(), controller.getName()),
                    Map.of("MOORING_WEBHOOK_CA_FILE", ca.toString()));
            String scope = controller.getAnnotation(Controller.class).namespace();
            assertTrue(yaml.contains("- " + scope), controller.getSimpleName() + ": " + yaml);
        }
    }

    @Test
    void printsTheConfigurationsWithTheControllerScope() throws Exception {
        Path ca = Files.write(dir.resolve("ca.crt"), WebhookConfigurationsTest.CA);
        String yaml = GenerateWebhooks.generate(List.of("--name", "widgets.example.com", "--service", "widgets", "--namespace",
                "operators", "--port", "8443", WebhookConfigurationsTest.Policies.class.getName(), WidgetController.class.getName()),
                Map.of("MOORING_WEBHOOK_CA_FILE", ca.toString()));
        assertTrue(yaml.contains("name: mutate-1.widgets.example.com"), yaml);
        assertTrue(yaml.contains("port: 8443"), yaml);
        assertTrue(yaml.contains("- widgets-live"), yaml);
        assertTrue(yaml.contains("- operators"), yaml);
    }

    @Test
    void aMissingCaOrNameIsNamed() {
        IllegalArgumentException ca = assertThrows(IllegalArgumentException.class, () -> GenerateWebhooks.generate(List.of("--name",
                "w.example.com", "--service", "w", "--namespace", "ns", WebhookConfigurationsTest.Policies.class.getName()), Map.of()));
        assertTrue(ca.getMessage().contains("MOORING_WEBHOOK_CA_FILE"), ca.getMessage());
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class, () -> GenerateWebhooks.generate(List.of(
                "--service", "w"), Map.of()));
        assertTrue(name.getMessage().contains("--name, --service and --namespace are required"), name.getMessage());
    }

    @Test
    void eachWrongArgumentIsNamed() {
        String policies = WebhookConfigurationsTest.Policies.class.getName();
        for (String option : List.of("--name", "--service", "--namespace", "--ca-file", "--port")) {
            assertEquals(option + " needs a value", assertThrows(IllegalArgumentException.class,
                    () -> GenerateWebhooks.generate(List.of(policies, option), Map.of())).getMessage());
        }
        assertEquals("--port must be a number, not 'https'", assertThrows(IllegalArgumentException.class,
                () -> GenerateWebhooks.generate(List.of("--port", "https"), Map.of())).getMessage());
        assertEquals("unknown option --names", assertThrows(IllegalArgumentException.class,
                () -> GenerateWebhooks.generate(List.of("--names", "x"), Map.of())).getMessage());
    }

    @Test
    void onlyClassesWithAdmissionMethodsAreWebhooksAndTheOperatorIsLeftOutUnlessAdmitted() throws Exception {
        Path ca = Files.write(dir.resolve("ca.crt"), WebhookConfigurationsTest.CA);
        List<String> common = List.of("--name", "widgets.example.com", "--service", "widgets", "--namespace", "operators",
                "--ca-file", ca.toString());
        List<String> controllerOnly = new java.util.ArrayList<>(common);
        controllerOnly.add(WidgetController.class.getName());
        assertEquals("none of the classes has @Validating or @Mutating methods", assertThrows(IllegalArgumentException.class,
                () -> GenerateWebhooks.generate(controllerOnly, Map.of())).getMessage());
        List<String> withPolicies = new java.util.ArrayList<>(common);
        withPolicies.add(WebhookConfigurationsTest.Policies.class.getName());
        assertTrue(GenerateWebhooks.generate(withPolicies, Map.of()).contains("name: not-the-operator"));
        withPolicies.add("--webhooks-admit-operator");
        assertFalse(GenerateWebhooks.generate(withPolicies, Map.of()).contains("name: not-the-operator"));
    }
}
