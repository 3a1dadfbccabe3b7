package dev.mooring.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Mutating;
import dev.mooring.api.admission.Validating;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1MutatingWebhook;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Scale;
import io.kubernetes.client.openapi.models.V1ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WebhookConfigurationsTest {

    static final byte[] CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".getBytes(StandardCharsets.US_ASCII);
    static final WebhookConfigurations.Target TARGET = new WebhookConfigurations.Target("widgets.example.com", "widgets",
            "operators", 443, CA);

    static class Policies {
        @Mutating
        Widget defaults(AdmissionRequest<Widget> request) {
            return null;
        }

        @Validating
        void checkSpec(AdmissionRequest<Widget> request) {
        }

        @Validating(target = V1Deployment.class, subresource = "scale", timeoutSeconds = 3)
        void limit(AdmissionRequest<V1Scale> request) {
        }

        @Validating
        void namespaces(AdmissionRequest<V1Namespace> request) {
        }

        @Validating(namespaceSelector = "team=blue")
        void selected(AdmissionRequest<V1ConfigMap> request) {
        }
    }

    static class Workloads {
        @Validating
        void pods(AdmissionRequest<io.kubernetes.client.openapi.models.V1Pod> request) {
        }

        @Mutating
        V1Deployment deployments(AdmissionRequest<V1Deployment> request) {
            return null;
        }
    }

    /**
     * The operator's own ServiceAccount is left out of every webhook unless admitted; webhooks on
     * Pods and Deployments (not on their subresources) leave out the operator's own workload.
     */
    @Test
    void matchConditionsLeaveTheOperatorAndItsWorkloadOut() {
        List<AdmissionRoute> workloads = new java.util.ArrayList<>(AdmissionRoutes.of(Workloads.class));
        workloads.addAll(routes);
        List<KubernetesObject> configurations = WebhookConfigurations.of(workloads, List.of(), "operators", TARGET);
        String notOperator = "request.userInfo.username != 'system:serviceaccount:operators:widgets'";
        String notWorkload = "!(request.namespace == 'operators' && [object, oldObject].exists(o, o != null && has(o.metadata)"
                + " && has(o.metadata.labels) && 'app.kubernetes.io/name' in o.metadata.labels"
                + " && o.metadata.labels['app.kubernetes.io/name'] == 'widgets'))";
        V1MutatingWebhook deployments = ((V1MutatingWebhookConfiguration) configurations.get(0)).getWebhooks().stream()
                .filter(webhook -> webhook.getClientConfig().getService().getPath().endsWith("/deployments")).findFirst().orElseThrow();
        assertEquals(List.of("not-the-operator", "not-the-operators-workload"),
                deployments.getMatchConditions().stream().map(io.kubernetes.client.openapi.models.V1MatchCondition::getName).toList());
        assertEquals(notOperator, deployments.getMatchConditions().get(0).getExpression());
        assertEquals(notWorkload, deployments.getMatchConditions().get(1).getExpression());
        for (V1ValidatingWebhook webhook : ((V1ValidatingWebhookConfiguration) configurations.get(1)).getWebhooks()) {
            String path = webhook.getClientConfig().getService().getPath();
            List<String> names = webhook.getMatchConditions().stream().map(io.kubernetes.client.openapi.models.V1MatchCondition::getName)
                    .toList();
            assertEquals(path.endsWith("/pods/pods") ? List.of("not-the-operator", "not-the-operators-workload")
                    : List.of("not-the-operator"), names, path + " (deployments/scale is a subresource: no workload condition)");
        }
        List<KubernetesObject> admitting = WebhookConfigurations.of(workloads, List.of(), "operators", TARGET.admittingTheOperator());
        for (V1ValidatingWebhook webhook : ((V1ValidatingWebhookConfiguration) admitting.get(1)).getWebhooks()) {
            assertTrue(webhook.getMatchConditions().stream().noneMatch(condition -> condition.getName().equals("not-the-operator")),
                    webhook.getName());
        }
    }

    private final List<AdmissionRoute> routes = AdmissionRoutes.of(Policies.class);

    @Test
    void mutatingFirstThenValidatingNamedByTheirIndexAmongAllRoutes() {
        List<KubernetesObject> configurations = WebhookConfigurations.of(routes, List.of(), "operators", TARGET);
        assertEquals(2, configurations.size());
        V1MutatingWebhookConfiguration mutating = (V1MutatingWebhookConfiguration) configurations.get(0);
        V1ValidatingWebhookConfiguration validating = (V1ValidatingWebhookConfiguration) configurations.get(1);
        assertEquals("widgets.example.com", mutating.getMetadata().getName());
        assertEquals("admissionregistration.k8s.io/v1", validating.getApiVersion());
        // routes in method-name order: checkSpec, defaults, limit, namespaces, selected
        assertEquals(List.of("mutate-1.widgets.example.com"), mutating.getWebhooks().stream().map(V1MutatingWebhook::getName).toList());
        assertEquals(List.of("validate-0.widgets.example.com", "validate-2.widgets.example.com", "validate-3.widgets.example.com",
                "validate-4.widgets.example.com"), validating.getWebhooks().stream().map(V1ValidatingWebhook::getName).toList());
        V1MutatingWebhook defaults = mutating.getWebhooks().get(0);
        assertEquals(List.of("v1"), defaults.getAdmissionReviewVersions());
        assertEquals("None", defaults.getSideEffects());
        assertEquals("Equivalent", defaults.getMatchPolicy());
        assertEquals("Never", defaults.getReinvocationPolicy());
        assertEquals("Fail", defaults.getFailurePolicy());
        assertEquals(5, defaults.getTimeoutSeconds());
        assertEquals("widgets", defaults.getClientConfig().getService().getName());
        assertEquals("operators", defaults.getClientConfig().getService().getNamespace());
        assertEquals(443, defaults.getClientConfig().getService().getPort());
        assertEquals("/mutate/example/com/v1/widgets/defaults", defaults.getClientConfig().getService().getPath());
        assertEquals(new String(CA, StandardCharsets.US_ASCII), new String(defaults.getClientConfig().getCaBundle(), StandardCharsets.US_ASCII));
        assertEquals(List.of("example.com"), defaults.getRules().get(0).getApiGroups());
        assertEquals(List.of("widgets"), defaults.getRules().get(0).getResources());
        assertEquals(List.of("CREATE", "UPDATE"), defaults.getRules().get(0).getOperations());
        assertEquals("Namespaced", defaults.getRules().get(0).getScope());
        V1ValidatingWebhook scale = validating.getWebhooks().get(1);
        assertEquals(List.of("apps"), scale.getRules().get(0).getApiGroups());
        assertEquals(List.of("deployments/scale"), scale.getRules().get(0).getResources());
        assertEquals(3, scale.getTimeoutSeconds());
    }

    @Test
    void namespaceSelectorsFollowTheControllerScope() {
        // no controller: the operator namespace
        V1ValidatingWebhookConfiguration alone = validating(WebhookConfigurations.of(routes, List.of(), "operators", TARGET));
        assertEquals(List.of("operators"), alone.getWebhooks().get(0).getNamespaceSelector().getMatchExpressions().get(0).getValues());
        assertEquals("kubernetes.io/metadata.name",
                alone.getWebhooks().get(0).getNamespaceSelector().getMatchExpressions().get(0).getKey());
        // cluster-scoped kinds: everywhere
        assertNull(alone.getWebhooks().get(2).getNamespaceSelector());
        assertEquals("Cluster", alone.getWebhooks().get(2).getRules().get(0).getScope());
        // an explicit selector wins
        assertEquals("blue", alone.getWebhooks().get(3).getNamespaceSelector().getMatchLabels().get("team"));
        // the namespaces of the kind's controllers; none when one watches all namespaces
        V1ValidatingWebhookConfiguration controlled = validating(WebhookConfigurations.of(routes, List.of(
                new WebhookConfigurations.ControllerScope(Widget.class, "b"), new WebhookConfigurations.ControllerScope(Widget.class, "a"),
                new WebhookConfigurations.ControllerScope(V1Deployment.class, null)), "operators", TARGET));
        assertEquals(List.of("a", "b"), controlled.getWebhooks().get(0).getNamespaceSelector().getMatchExpressions().get(0).getValues());
        assertNull(controlled.getWebhooks().get(1).getNamespaceSelector());
        // a controller of a namespace set: each namespace of the set
        V1ValidatingWebhookConfiguration set = validating(WebhookConfigurations.of(routes, WebhookConfigurations.ControllerScope.of(
                dev.mooring.engine.model.ControllerDefinition.builder("widgets", Widget.class)
                        .namespaces(new java.util.LinkedHashSet<>(List.of("team-b", "team-a"))).build()), "operators", TARGET));
        assertEquals(List.of("team-a", "team-b"), set.getWebhooks().get(0).getNamespaceSelector().getMatchExpressions().get(0).getValues());
    }

    @Test
    void yamlHasOneDocumentPerConfigurationWithJsonFieldNames() {
        String yaml = WebhookConfigurations.toYaml(WebhookConfigurations.of(routes, List.of(), "operators", TARGET));
        assertEquals(2, yaml.split("(?m)^---$").length - 1, yaml);
        assertTrue(yaml.contains("kind: MutatingWebhookConfiguration"), yaml);
        assertTrue(yaml.contains("reinvocationPolicy: Never"), yaml);
        assertTrue(yaml.contains("timeoutSeconds: 3"), yaml);
        assertTrue(yaml.contains("port: 443"), yaml);
        assertTrue(yaml.contains("caBundle: " + java.util.Base64.getEncoder().encodeToString(CA)), yaml);
        assertTrue(yaml.contains("- deployments/scale"), yaml);
    }

    @Test
    void targetValuesKubernetesWouldRefuseAreRefused() {
        assertProblem("must include one", () -> new WebhookConfigurations.Target("widgets", "w", "ns", 443, CA));
        assertProblem("must be a DNS subdomain", () -> new WebhookConfigurations.Target("Widgets.example.com", "w", "ns", 443, CA));
        assertProblem("not ending in .static.k8s.io", () -> new WebhookConfigurations.Target("a.static.k8s.io", "w", "ns", 443, CA));
        assertProblem("must contain PEM certificates", () -> new WebhookConfigurations.Target("w.example.com", "w", "ns", 443,
                "not pem".getBytes(StandardCharsets.US_ASCII)));
        assertProblem("between 1 and 65535", () -> new WebhookConfigurations.Target("w.example.com", "w", "ns", 0, CA));
        assertProblem("between 1 and 65535", () -> new WebhookConfigurations.Target("w.example.com", "w", "ns", 65536, CA));
        new WebhookConfigurations.Target("w.example.com", "w", "ns", 1, CA); // the bounds themselves are ports
        new WebhookConfigurations.Target("w.example.com", "w", "ns", 65535, CA);
        String longest = "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(57) + ".com"; // 253
        new WebhookConfigurations.Target(longest, "w", "ns", 443, CA);
        assertProblem("must be a DNS subdomain", () -> new WebhookConfigurations.Target(longest.replace(".com", "x.com"), "w", "ns", 443, CA));
        assertProblem("must be DNS labels", () -> new WebhookConfigurations.Target("w.example.com", "W_1", "ns", 443, CA));
    }

    @Test
    void onlyValidatorsGiveOneConfiguration() {
        List<AdmissionRoute> validators = routes.stream().filter(route -> !route.mutating()).toList();
        List<KubernetesObject> configurations = WebhookConfigurations.of(validators, List.of(), "operators", TARGET);
        assertEquals(1, configurations.size());
        assertEquals("ValidatingWebhookConfiguration", configurations.get(0).getKind());
    }

    private static V1ValidatingWebhookConfiguration validating(List<KubernetesObject> configurations) {
        return (V1ValidatingWebhookConfiguration) configurations.get(1);
    }

    private static void assertProblem(String expected, Runnable action) {
        IllegalArgumentException problem = assertThrows(IllegalArgumentException.class, action::run);
        assertTrue(problem.getMessage().contains(expected), problem.getMessage());
    }

    /** With cert-manager, the configurations carry its injection annotation and no bundle of their own. */
    @org.junit.jupiter.api.Test
    void certManagerInjectsTheCaWhenAsked() {
        WebhookConfigurations.Target target = new WebhookConfigurations.Target("widgets.example.com", "widgets", "operators", 443, null, "operators/widgets-serving");
        for (io.kubernetes.client.common.KubernetesObject configuration : WebhookConfigurations.of(AdmissionRoutes.of(Policies.class),
                java.util.List.of(), "operators", target)) {
            org.junit.jupiter.api.Assertions.assertEquals("operators/widgets-serving",
                    configuration.getMetadata().getAnnotations().get("cert-manager.io/inject-ca-from"));
            String yaml = WebhookConfigurations.toYaml(java.util.List.of(configuration));
            org.junit.jupiter.api.Assertions.assertFalse(yaml.contains("caBundle"), yaml);
            org.junit.jupiter.api.Assertions.assertFalse(yaml.contains("&id") || yaml.contains("*id") || yaml.contains("[]")
                    || yaml.contains("{}"), "no anchors, aliases or empty collections: " + yaml);
        }
        for (String wrong : java.util.List.of("widgets-serving", "Operators/x", "a/b/c")) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> new WebhookConfigurations.Target("widgets.example.com", "widgets", "operators", 443, null, wrong), wrong);
        }
        IllegalArgumentException both = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new WebhookConfigurations.Target("widgets.example.com", "widgets", "operators", 443, CA, "operators/x"));
        org.junit.jupiter.api.Assertions.assertTrue(both.getMessage().contains("not both"), both.getMessage());
        // neither: the operator writes the bundle (self-managed certificates), so the YAML carries none and no annotation
        String selfManaged = WebhookConfigurations.toYaml(WebhookConfigurations.of(AdmissionRoutes.of(Policies.class),
                java.util.List.of(), "operators",
                new WebhookConfigurations.Target("widgets.example.com", "widgets", "operators", 443, null, null)));
        org.junit.jupiter.api.Assertions.assertTrue(selfManaged.contains("name: widgets") && !selfManaged.contains("caBundle")
                && !selfManaged.contains("inject-ca-from"), selfManaged);
    }
}
