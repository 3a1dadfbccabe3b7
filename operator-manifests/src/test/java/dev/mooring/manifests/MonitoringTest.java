package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.examples.admission.DeploymentPolicy;
import dev.mooring.examples.snippets.Widget;
import dev.mooring.examples.snippets.WidgetController;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The monitoring kit as generated: what selects what, and that every expression names the
 * operator's job. What Prometheus makes of the rules and queries is MonitoringIT's.
 */
class MonitoringTest {

    private static final List<String> OPERATOR = List.of("--name", "widgets", "--namespace", "operators", "--image", "example/widgets:1",
            "--lease-name", "widgets", Widget.class.getName(), WidgetController.class.getName(), DeploymentPolicy.class.getName());

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> documents(String yaml) {
        List<Map<String, Object>> documents = new ArrayList<>();
        new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(new StringReader(yaml)).forEach(document -> {
            if (document != null) {
                documents.add((Map<String, Object>) document);
            }
        });
        return documents;
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Map<String, Object> object, String... path) {
        Object value = object;
        for (String key : path) {
            value = ((Map<String, Object>) value).get(key);
        }
        return (T) value;
    }

    @Test
    void theKitIsGeneratedOnlyWhenAskedAndWithAnImage() throws Exception {
        Map<String, String> plain = GenerateManifests.generate(OPERATOR, Map.of());
        assertFalse(plain.containsKey("monitoring.yaml"));
        List<String> asked = new ArrayList<>(OPERATOR);
        asked.add(0, "--monitoring");
        Map<String, String> files = GenerateManifests.generate(asked, Map.of());
        assertTrue(files.get("kustomization.yaml").contains("  - monitoring.yaml\n"), files.get("kustomization.yaml"));
        assertEquals(List.of("Service", "ServiceMonitor", "PrometheusRule", "ConfigMap"),
                documents(files.get("monitoring.yaml")).stream().map(document -> (String) document.get("kind")).toList());

        List<String> withoutImage = new ArrayList<>(asked);
        int image = withoutImage.indexOf("--image");
        withoutImage.remove(image);
        withoutImage.remove(image);
        Map<String, String> left = GenerateManifests.generate(withoutImage, Map.of());
        assertFalse(left.containsKey("monitoring.yaml"));
        assertTrue(GenerateManifests.notes(left).stream().anyMatch(note -> note.contains("monitoring kit is left out")),
                GenerateManifests.notes(left).toString());
    }

    @Test
    void theServiceMonitorSelectsTheMetricsServiceWhichSelectsTheOperatorsPods() throws Exception {
        List<String> asked = new ArrayList<>(OPERATOR);
        asked.add("--monitoring");
        Map<String, String> files = GenerateManifests.generate(asked, Map.of());
        List<Map<String, Object>> kit = documents(files.get("monitoring.yaml"));
        Map<String, Object> service = kit.get(0);
        Map<String, Object> monitor = kit.get(1);
        Map<String, Object> pods = at(documents(files.get("deployment.yaml")).get(0), "spec", "template", "metadata", "labels");
        Map<String, String> serviceLabels = at(service, "metadata", "labels");
        Map<String, String> selected = at(monitor, "spec", "selector", "matchLabels");
        assertTrue(serviceLabels.entrySet().containsAll(selected.entrySet()), "the ServiceMonitor selects the metrics Service");
        Map<String, String> webhookService = at(documents(files.get("service.yaml")).get(0), "metadata", "labels");
        assertFalse(webhookService.entrySet().containsAll(selected.entrySet()), "and not the webhooks' Service");
        Map<String, String> podSelector = at(service, "spec", "selector");
        assertTrue(pods.entrySet().containsAll(podSelector.entrySet()), "the metrics Service selects the operator's pods");
        List<Map<String, Object>> ports = at(service, "spec", "ports");
        assertEquals("http", ports.get(0).get("targetPort"), "the port /metrics is served on");
        List<Map<String, Object>> endpoints = at(monitor, "spec", "endpoints");
        assertEquals("metrics", endpoints.get(0).get("port"));
        assertEquals("/metrics", endpoints.get(0).get("path"));
        assertEquals("widgets-metrics", at(service, "metadata", "name"), "the job of its targets");
        Map<String, String> dashboard = at(kit.get(3), "data");
        assertTrue(at(kit.get(3), "metadata", "labels") instanceof Map<?, ?> labels && "1".equals(labels.get(Monitoring.DASHBOARD_LABEL)));
        jakarta.json.JsonObject model = jakarta.json.Json.createReader(new StringReader(dashboard.get("widgets.json"))).readObject();
        assertEquals(Monitoring.panels("widgets").size(), model.getJsonArray("panels").size());
    }

    @Test
    @SuppressWarnings("unchecked")
    void secureMetricsAreScrapedOverHttpsWithATokenTheOperatorMayReview() throws Exception {
        List<String> asked = new ArrayList<>(List.of("--name", "widgets", "--namespace", "operators", "--image", "example/widgets:1",
                "--monitoring", "--secure-metrics", Widget.class.getName(), WidgetController.class.getName()));
        Map<String, String> files = GenerateManifests.generate(asked, Map.of());
        Map<String, Object> container = at(documents(files.get("deployment.yaml")).get(0), "spec", "template", "spec");
        Map<String, Object> operator = ((List<Map<String, Object>>) at(container, "containers")).get(0);
        assertTrue(((List<Map<String, Object>>) operator.get("env")).contains(Map.of("name", "MOORING_METRICS_SECURE", "value", "true")),
                operator.get("env").toString());
        assertTrue(((List<Map<String, Object>>) operator.get("ports")).stream().anyMatch(port -> "https".equals(port.get("name"))),
                "the HTTPS port, also without webhooks");
        List<Map<String, Object>> kit = documents(files.get("monitoring.yaml"));
        List<Map<String, Object>> ports = at(kit.get(0), "spec", "ports");
        assertEquals("https", ports.get(0).get("targetPort"));
        Map<String, Object> endpoint = ((List<Map<String, Object>>) at(kit.get(1), "spec", "endpoints")).get(0);
        assertEquals("/mooring/metrics", endpoint.get("path"));
        assertEquals("https", endpoint.get("scheme"));
        assertEquals("/var/run/secrets/kubernetes.io/serviceaccount/token", endpoint.get("bearerTokenFile"));

        List<Map<String, Object>> rbac = documents(files.get("rbac.yaml"));
        Map<String, Object> reader = rbac.stream().filter(object -> "widgets-metrics-reader".equals(at(object, "metadata", "name")))
                .findFirst().orElseThrow();
        assertEquals("ClusterRole", reader.get("kind"));
        assertEquals(List.of(Map.of("nonResourceURLs", List.of("/mooring/metrics"), "verbs", List.of("get"))), reader.get("rules"));
        assertFalse(rbac.stream().anyMatch(object -> ((String) object.get("kind")).endsWith("Binding")
                && "widgets-metrics-reader".equals(at(object, "roleRef", "name"))), "the reader is bound by whoever scrapes");
        Map<String, Object> operatorRole = rbac.stream().filter(object -> "ClusterRole".equals(object.get("kind"))
                && "widgets".equals(at(object, "metadata", "name"))).findFirst().orElseThrow();
        String rules = operatorRole.get("rules").toString();
        assertTrue(rules.contains("{apiGroups=[authentication.k8s.io], resources=[tokenreviews], verbs=[create]}"), rules);
        assertTrue(rules.contains("{apiGroups=[authorization.k8s.io], resources=[subjectaccessreviews], verbs=[create]}"), rules);

        Map<String, String> open = GenerateManifests.generate(OPERATOR, Map.of());
        assertFalse(open.get("rbac.yaml").contains("tokenreviews"), "no review rights without secure metrics");
        assertFalse(open.get("deployment.yaml").contains("MOORING_METRICS_SECURE"));
    }

    @Test
    void everyExpressionSelectsTheOperatorsJobAndEveryAlertSaysWhatIsWrong() {
        List<String> expressions = new ArrayList<>();
        Monitoring.alerts("widgets").forEach(alert -> {
            expressions.add(alert.expression());
            assertFalse(alert.summary().isBlank());
            assertTrue(List.of("warning", "critical").contains(alert.severity()), alert.name());
        });
        Monitoring.panels("widgets").forEach(panel -> expressions.addAll(panel.queries()));
        for (String expression : expressions) {
            assertTrue(expression.contains("job=\"widgets-metrics\""), expression);
        }
        assertEquals(Monitoring.alerts("widgets").stream().map(Monitoring.Alert::name).distinct().count(),
                Monitoring.alerts("widgets").size(), "alert names are unique");
    }
}
