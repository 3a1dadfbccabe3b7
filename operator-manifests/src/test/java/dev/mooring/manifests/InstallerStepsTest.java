package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The installer's steps over an API server that answers from a script: the order of the writes,
 * what each wait waits for, and how a step fails. What the API server does with the objects is
 * InstallerIT's, on the local API server.
 */
class InstallerStepsTest {

    private static final Duration PATIENT = Duration.ofMinutes(5);
    private static final String CRD = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com";
    private static final String DEPLOYMENT = "/apis/apps/v1/namespaces/ops/deployments/op";
    private static final String WEBHOOKS = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/op";

    private final List<String> progress = new ArrayList<>();

    private static JsonObject json(String text) {
        return JsonParser.parseString(text).getAsJsonObject();
    }

    private static List<JsonObject> manifests() {
        return List.of(
                json("{\"apiVersion\":\"admissionregistration.k8s.io/v1\",\"kind\":\"ValidatingWebhookConfiguration\","
                        + "\"metadata\":{\"name\":\"op\"},\"webhooks\":[]}"),
                json("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"op\",\"namespace\":\"ops\"},"
                        + "\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"op\"}}}}"),
                json("{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"op\",\"namespace\":\"ops\"}}"),
                json("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\",\"metadata\":{\"name\":"
                        + "\"widgets.example.com\"},\"spec\":{\"group\":\"example.com\",\"names\":{\"kind\":\"Widget\",\"plural\":\"widgets\"},"
                        + "\"scope\":\"Namespaced\",\"versions\":[{\"name\":\"v1beta1\",\"served\":true,\"storage\":false},"
                        + "{\"name\":\"v1\",\"served\":true,\"storage\":true}]}}"),
                json("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"op\"}}"),
                json("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"op-config\",\"namespace\":\"ops\"}}"));
    }

    private static ScriptedApi cluster() {
        return new ScriptedApi().discovery("v1 Namespace namespaces false", "v1 ConfigMap configmaps true",
                "v1 ServiceAccount serviceaccounts true", "v1 Pod pods true", "apps/v1 Deployment deployments true",
                "apiextensions.k8s.io/v1 CustomResourceDefinition customresourcedefinitions false",
                "rbac.authorization.k8s.io/v1 ClusterRole clusterroles false",
                "admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration validatingwebhookconfigurations false",
                "example.com/v1 Widget widgets true");
    }

    private static ScriptedApi converging() {
        return cluster()
                .answer("GET " + CRD, 200, "{\"status\":{}}")
                .answer("GET " + CRD, 200, "{\"status\":{\"conditions\":[{\"type\":\"Established\",\"status\":\"True\"}]}}")
                .answer("GET " + DEPLOYMENT, 200, "{\"metadata\":{\"generation\":2},\"spec\":{\"replicas\":1},\"status\":"
                        + "{\"observedGeneration\":1,\"replicas\":1,\"updatedReplicas\":1,\"availableReplicas\":1}}")
                .answer("GET " + DEPLOYMENT, 200, "{\"metadata\":{\"generation\":2},\"spec\":{\"replicas\":1},\"status\":"
                        + "{\"observedGeneration\":2,\"replicas\":2,\"updatedReplicas\":1,\"availableReplicas\":1}}")
                .answer("GET " + DEPLOYMENT, 200, "{\"metadata\":{\"generation\":2},\"spec\":{\"replicas\":1},\"status\":"
                        + "{\"observedGeneration\":2,\"replicas\":1,\"updatedReplicas\":1,\"availableReplicas\":1}}")
                .answer("GET " + WEBHOOKS, 200, "{\"webhooks\":[{\"name\":\"a\",\"clientConfig\":{\"service\":{\"name\":\"op\"}}}]}")
                .answer("GET " + WEBHOOKS, 200, "{\"webhooks\":[{\"name\":\"a\",\"clientConfig\":{\"service\":{\"name\":\"op\"},"
                        + "\"caBundle\":\"\"}},{\"name\":\"b\",\"clientConfig\":{\"url\":\"https://x\"}}]}")
                .answer("GET " + WEBHOOKS, 200, "{\"webhooks\":[{\"name\":\"a\",\"clientConfig\":{\"service\":{\"name\":\"op\"},"
                        + "\"caBundle\":\"Y2E=\"}},{\"name\":\"b\",\"clientConfig\":{\"url\":\"https://x\"}}]}");
    }

    private static List<String> writesAndWaits(ScriptedApi api) {
        return api.requests.stream().distinct().toList();
    }

    @Test
    void anInstallAppliesStepByStepAndWaitsForEachStepsState() throws Exception {
        ScriptedApi api = converging();
        for (String path : List.of("/api/v1/namespaces/ops", CRD, "/api/v1/namespaces/ops/serviceaccounts/op",
                "/apis/rbac.authorization.k8s.io/v1/clusterroles/op", DEPLOYMENT, "/api/v1/namespaces/ops/configmaps/op-config", WEBHOOKS)) {
            api.answer("PATCH " + path, 200, "{}");
        }
        new Installer(api.http(), new Installer.Options(PATIENT, false, false), progress::add).install(manifests());

        String apply = "?fieldManager=mooring-install";
        assertEquals(List.of("PATCH /api/v1/namespaces/ops" + apply, "PATCH " + CRD + apply, "GET " + CRD,
                "PATCH /api/v1/namespaces/ops/serviceaccounts/op" + apply, "PATCH /apis/rbac.authorization.k8s.io/v1/clusterroles/op" + apply,
                "PATCH " + DEPLOYMENT + apply, "PATCH /api/v1/namespaces/ops/configmaps/op-config" + apply, "GET " + DEPLOYMENT,
                "PATCH " + WEBHOOKS + apply, "GET " + WEBHOOKS), writesAndWaits(api),
                "namespaces, CRDs (then Established), RBAC, the workload (then available), the webhooks (then their CA bundle)");
        assertEquals(3, api.requests.stream().filter(r -> r.equals("GET " + DEPLOYMENT)).count(),
                "an old generation observed, then a replica too many, then available");
        assertEquals(3, api.requests.stream().filter(r -> r.equals("GET " + WEBHOOKS)).count(),
                "no CA bundle, then an empty one, then one for the webhook that calls a Service");
        assertEquals(List.of("[check]", "[namespaces]", "  applied Namespace ops", "[crds]", "  applied CustomResourceDefinition "
                + "widgets.example.com", "  established CustomResourceDefinition widgets.example.com", "[rbac]", "  applied ServiceAccount ops/op",
                "  applied ClusterRole op", "[workload]", "  applied Deployment ops/op", "  applied ConfigMap ops/op-config", "[rollout]",
                "  available Deployment ops/op", "[webhooks]", "  applied ValidatingWebhookConfiguration op",
                "  CA bundle in ValidatingWebhookConfiguration op"), progress);
    }

    @Test
    void forceTakesTheFieldsOverAndAConflictWithoutItSaysHow() {
        ScriptedApi api = cluster().answer("PATCH /api/v1/namespaces/ops", 409,
                "{\"kind\":\"Status\",\"code\":409,\"reason\":\"Conflict\",\"message\":\"Apply failed with 1 conflict\"}");
        Installer.StepFailed failed = assertThrows(Installer.StepFailed.class,
                () -> new Installer(api.http(), new Installer.Options(PATIENT, false, false), progress::add).install(manifests()));
        assertEquals("namespaces", failed.step());
        assertTrue(failed.getMessage().contains("Apply failed with 1 conflict") && failed.getMessage().contains("--force"),
                failed.getMessage());

        ScriptedApi forced = cluster();
        assertThrows(Installer.StepFailed.class,
                () -> new Installer(forced.http(), new Installer.Options(PATIENT, true, false), progress::add).install(manifests()));
        assertEquals("PATCH /api/v1/namespaces/ops?fieldManager=mooring-install&force=true", forced.requests.get(0));
    }

    @Test
    void aRolloutThatDoesNotCompleteFailsItsStepWithWhatThePodsSay() {
        ScriptedApi api = cluster()
                .answer("GET " + CRD, 200, "{\"status\":{\"conditions\":[{\"type\":\"Established\",\"status\":\"True\"}]}}")
                .answer("GET " + DEPLOYMENT, 200, "{\"metadata\":{\"generation\":1,\"namespace\":\"ops\"},\"spec\":{\"replicas\":2,"
                        + "\"selector\":{\"matchLabels\":{\"app\":\"op\"}}},\"status\":{\"observedGeneration\":1,\"replicas\":2,"
                        + "\"updatedReplicas\":2,\"availableReplicas\":1}}")
                .answer("GET /api/v1/namespaces/ops/pods", 200, "{\"items\":[]}");
        for (String path : List.of("/api/v1/namespaces/ops", CRD, "/api/v1/namespaces/ops/serviceaccounts/op",
                "/apis/rbac.authorization.k8s.io/v1/clusterroles/op", DEPLOYMENT, "/api/v1/namespaces/ops/configmaps/op-config")) {
            api.answer("PATCH " + path, 200, "{}");
        }
        Installer.StepFailed failed = assertThrows(Installer.StepFailed.class, () -> new Installer(api.http(),
                new Installer.Options(Duration.ofSeconds(1), false, false), progress::add).install(manifests()));
        assertEquals("rollout", failed.step());
        assertEquals("step 'rollout' failed: Deployment ops/op not available within the timeout: 1 of 2 replicas available, 2 updated, generation 1 of 1"
                + " observed (timeout 1 s); no pod of it exists (is a controller running them?)", failed.getMessage());
    }

    @Test
    void anObjectThatBreaksARuleFailsTheCheckBeforeAnyRequest() {
        ScriptedApi api = cluster();
        List<JsonObject> broken = new ArrayList<>(manifests());
        broken.add(json("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"namespace\":\"Not_A_Namespace\"}}"));
        Installer.StepFailed failed = assertThrows(Installer.StepFailed.class,
                () -> new Installer(api.http(), new Installer.Options(PATIENT, false, false), progress::add).install(broken));
        assertEquals("check", failed.step());
        assertTrue(failed.getMessage().startsWith("step 'check' failed: object 7: "), failed.getMessage());
        assertEquals(List.of(), api.requests, "no request before every object passed the check");
    }

    @Test
    void anUninstallDeletesInAnOrderThatCanFinishAndWaitsForTheCustomResourcesAndCrds() throws Exception {
        String widgets = "/apis/example.com/v1/widgets";
        ScriptedApi api = cluster()
                .answer("GET " + widgets, 200, "{\"items\":[{\"metadata\":{\"name\":\"w1\",\"namespace\":\"a\"}},"
                        + "{\"metadata\":{\"name\":\"w2\",\"namespace\":\"b\"}}]}")
                .answer("GET " + widgets, 200, "{\"items\":[{\"metadata\":{\"name\":\"w2\",\"namespace\":\"b\",\"finalizers\":[\"x\"]}}]}")
                .answer("GET " + widgets, 200, "{\"items\":[]}")
                .answer("DELETE /apis/example.com/v1/namespaces/a/widgets/w1", 200, "{}")
                .answer("DELETE /apis/example.com/v1/namespaces/b/widgets/w2", 404, "{\"kind\":\"Status\",\"code\":404}")
                .answer("DELETE " + WEBHOOKS, 200, "{}")
                .answer("DELETE " + DEPLOYMENT, 200, "{}")
                .answer("DELETE /api/v1/namespaces/ops/serviceaccounts/op", 200, "{}")
                .answer("DELETE " + CRD, 200, "{}")
                .answer("GET " + CRD, 200, "{\"status\":{\"conditions\":[{\"type\":\"Terminating\",\"status\":\"True\"}]}}")
                .answer("GET " + CRD, 404, "{\"kind\":\"Status\",\"code\":404}");
        new Installer(api.http(), new Installer.Options(PATIENT, false, false), progress::add).uninstall(manifests());

        assertEquals(List.of("DELETE " + WEBHOOKS, "GET " + widgets, "DELETE /apis/example.com/v1/namespaces/a/widgets/w1",
                "DELETE /apis/example.com/v1/namespaces/b/widgets/w2", "DELETE /api/v1/namespaces/ops/configmaps/op-config",
                "DELETE " + DEPLOYMENT, "DELETE /apis/rbac.authorization.k8s.io/v1/clusterroles/op",
                "DELETE /api/v1/namespaces/ops/serviceaccounts/op", "DELETE " + CRD, "GET " + CRD), writesAndWaits(api),
                "webhooks, the custom resources of the storage version (awaited), the workload and RBAC in reverse, the CRD (awaited)");
        assertEquals(List.of("[check]", "[webhooks]", "  deleted ValidatingWebhookConfiguration op", "[custom-resources]",
                "  deleted Widget a/w1", "[workload]", "  absent ConfigMap ops/op-config", "  deleted Deployment ops/op", "[rbac]",
                "  absent ClusterRole op", "  deleted ServiceAccount ops/op", "[crds]", "  deleted CustomResourceDefinition widgets.example.com",
                "  gone CustomResourceDefinition widgets.example.com"), progress);

        ScriptedApi keeping = cluster();
        progress.clear();
        new Installer(keeping.http(), new Installer.Options(PATIENT, false, true), progress::add).uninstall(manifests());
        assertEquals(List.of("[check]", "[webhooks]", "  absent ValidatingWebhookConfiguration op", "[workload]",
                "  absent ConfigMap ops/op-config", "  absent Deployment ops/op", "[rbac]", "  absent ClusterRole op",
                "  absent ServiceAccount ops/op"), progress, "keepCrds: the custom resources and the CRDs stay");
    }

    @Test
    void customResourcesTheOperatorDoesNotFinishFailTheStepNamingThemAndTheirFinalizers() {
        ScriptedApi api = cluster().answer("GET /apis/example.com/v1/widgets", 200,
                "{\"items\":[{\"metadata\":{\"name\":\"w\",\"namespace\":\"a\",\"finalizers\":[\"example.com/cleanup\"]}}]}");
        Installer.StepFailed failed = assertThrows(Installer.StepFailed.class, () -> new Installer(api.http(),
                new Installer.Options(Duration.ofSeconds(1), false, false), progress::add).uninstall(manifests()));
        assertEquals("custom-resources", failed.step());
        assertEquals("step 'custom-resources' failed: 1 Widget left, the operator has not finished them: Widget a/w (finalizers: [\"example.com/cleanup\"]) (timeout 1 s)",
                failed.getMessage());
    }
}
