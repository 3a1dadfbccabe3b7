package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.examples.mirror.ConfigMapMirror;
import dev.mooring.examples.snippets.WidgetController;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The inferred rules, by scope: what each kind of access grants, and nothing to install or escalate. */
class RbacTest {

    /** "scope group/resource[names]" → verbs, over every Role and ClusterRole. */
    private static Map<String, String> rules(List<JsonObject> manifests) {
        Map<String, String> rules = new TreeMap<>();
        for (JsonObject manifest : manifests) {
            if (!manifest.getString("kind").endsWith("Role")) {
                continue;
            }
            String scope = manifest.getJsonObject("metadata").getString("namespace", "cluster");
            for (JsonObject rule : manifest.getJsonArray("rules").getValuesAs(JsonObject.class)) {
                String names = rule.containsKey("resourceNames") ? rule.getJsonArray("resourceNames").toString() : "";
                rules.put(scope + " " + rule.getJsonArray("apiGroups").getString(0) + "/" + rule.getJsonArray("resources").getString(0)
                        + names, rule.getJsonArray("verbs").getValuesAs(jakarta.json.JsonString.class).stream()
                        .map(jakarta.json.JsonString::getString).collect(Collectors.joining(",")));
            }
        }
        return rules;
    }

    @Test
    void aStagedControllerWithChildrenInItsNamespace() {
        Map<String, String> rules = rules(Rbac.of(List.of(WidgetController.class), Rbac.Settings.builder("widgets", "operators").build()));
        Map<String, String> expected = new TreeMap<>(Map.of(
                "operators example.com/widgets", "get,list,patch,watch",
                "operators example.com/widgets/status", "patch",
                "operators example.com/widgets/finalizers", "update",
                "operators /configmaps", "create,delete,get,list,patch,watch",
                "operators apps/deployments", "create,delete,get,list,patch,watch",
                "operators /services", "create,delete,get,list,patch,watch",
                "operators events.k8s.io/events", "create,patch"));
        assertEquals(expected, rules);
    }

    @Test
    void anAllNamespacesControllerGetsAClusterRoleAndElectionItsLease() {
        List<JsonObject> manifests = Rbac.of(List.of(ConfigMapMirror.class),
                Rbac.Settings.builder("mirror", "operators").leaseName("mirror").build());
        Map<String, String> rules = rules(manifests);
        assertEquals("create,get,list,patch,watch", rules.get("cluster /configmaps"), "the primary, and @RbacRule's create");
        assertEquals("create,patch", rules.get("cluster events.k8s.io/events"));
        assertEquals("create", rules.get("operators coordination.k8s.io/leases"));
        assertEquals("get,update", rules.get("operators coordination.k8s.io/leases[\"mirror\"]"));
        assertEquals(List.of("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"),
                manifests.stream().map(m -> m.getString("kind")).toList());
        JsonObject binding = manifests.get(2);
        assertEquals("{\"kind\":\"ServiceAccount\",\"name\":\"mirror\",\"namespace\":\"operators\"}",
                binding.getJsonArray("subjects").get(0).toString());
    }

    @Test
    void nothingToInstallCrdsEditRbacOrRegisterWebhooks() {
        List<JsonObject> manifests = Rbac.of(List.of(WidgetController.class, ConfigMapMirror.class,
                dev.mooring.examples.admission.PodPolicy.class), Rbac.Settings.builder("all", "operators").leaseName("all").build());
        for (String key : rules(manifests).keySet()) {
            assertTrue(!key.contains("apiextensions") && !key.contains("rbac.authorization") && !key.contains("admissionregistration"),
                    key);
        }
        assertEquals("get,list,watch", rules(manifests).get("cluster /namespaces"), "the admission cache, and the live fallback read");
    }

    @dev.mooring.api.RbacRule(resources = "secrets", verbs = {"list", "get", "get"})
    static class RepeatedVerbs {
    }

    @Test
    void aRulesVerbsAreWrittenSortedAndOnce() {
        Map<String, String> rules = rules(Rbac.of(List.of(RepeatedVerbs.class), Rbac.Settings.builder("repeated", "operators").build()));
        assertEquals("get,list", rules.get("operators /secrets"), rules.toString());
    }

    @dev.mooring.api.Controller(name = "accounts", namespace = "apps")
    static class AccountCounter implements dev.mooring.api.Reconciler<io.kubernetes.client.openapi.models.V1ConfigMap> {
        @Override
        public dev.mooring.api.Result reconcile(io.kubernetes.client.openapi.models.V1ConfigMap map,
                dev.mooring.api.Context<io.kubernetes.client.openapi.models.V1ConfigMap> context) {
            return dev.mooring.api.Result.done();
        }

        @dev.mooring.api.Watch(metadataOf = io.kubernetes.client.openapi.models.V1ServiceAccount.class)
        java.util.Set<dev.mooring.api.ObjectKey> accounts(dev.mooring.api.PartialObjectMetadata account) {
            return java.util.Set.of();
        }
    }

    @dev.mooring.api.Controller(name = "teams", namespaces = {"team-a", "team-b"}, owns = io.kubernetes.client.openapi.models.V1Secret.class)
    static class TeamMirror implements dev.mooring.api.Reconciler<io.kubernetes.client.openapi.models.V1ConfigMap> {
        @Override
        public dev.mooring.api.Result reconcile(io.kubernetes.client.openapi.models.V1ConfigMap map,
                dev.mooring.api.Context<io.kubernetes.client.openapi.models.V1ConfigMap> context) {
            return dev.mooring.api.Result.done();
        }
    }

    @Test
    void aControllerOfANamespaceSetGetsARoleInEachNamespaceOfTheSet() {
        List<JsonObject> manifests = Rbac.of(List.of(TeamMirror.class), Rbac.Settings.builder("teams", "operators").build());
        Map<String, String> rules = rules(manifests);
        for (String namespace : List.of("team-a", "team-b")) {
            assertEquals("get,list,patch,watch", rules.get(namespace + " /configmaps"), rules.toString());
            assertEquals("create,delete,get,list,patch,watch", rules.get(namespace + " /secrets"), rules.toString());
            assertEquals("create,patch", rules.get(namespace + " events.k8s.io/events"), rules.toString());
        }
        assertTrue(rules.keySet().stream().noneMatch(key -> key.startsWith("operators ") || key.startsWith("cluster ")), rules.toString());
    }

    @Test
    void aMetadataOnlyWatchIsGrantedOnTheKindItNames() {
        Map<String, String> rules = rules(Rbac.of(List.of(AccountCounter.class), Rbac.Settings.builder("accounts", "operators").build()));
        assertEquals("get,list,watch", rules.get("apps /serviceaccounts"), rules.toString());
    }

    static class DefaultsOnly {
        @dev.mooring.api.admission.Mutating(operations = dev.mooring.api.admission.Operation.CREATE)
        io.kubernetes.client.openapi.models.V1ConfigMap label(
                dev.mooring.api.admission.AdmissionRequest<io.kubernetes.client.openapi.models.V1ConfigMap> request) {
            return request.object();
        }
    }

    @Test
    void selfManagedCertificatesMayUpdateOnlyTheConfigurationsTheirWebhooksHave() {
        String validating = "cluster admissionregistration.k8s.io/validatingwebhookconfigurations[\"hooks.operators.svc\"]";
        String mutating = "cluster admissionregistration.k8s.io/mutatingwebhookconfigurations[\"hooks.operators.svc\"]";
        Map<String, String> checksOnly = rules(Rbac.of(List.of(dev.mooring.examples.admission.PodPolicy.class),
                Rbac.Settings.builder("hooks", "operators").selfManagedCertificates(true).build()));
        assertEquals("get,list,update,watch", checksOnly.get(validating));
        assertTrue(!checksOnly.containsKey(mutating), checksOnly.toString());
        Map<String, String> defaultsOnly = rules(Rbac.of(List.of(DefaultsOnly.class),
                Rbac.Settings.builder("hooks", "operators").selfManagedCertificates(true).build()));
        assertEquals("get,list,update,watch", defaultsOnly.get(mutating));
        assertTrue(!defaultsOnly.containsKey(validating), defaultsOnly.toString());
    }

    @Test
    void aControllerWithoutChildrenOrFinalizerMayNotUpdateFinalizers() {
        Map<String, String> rules = rules(Rbac.of(List.of(AccountCounter.class), Rbac.Settings.builder("accounts", "operators").build()));
        assertTrue(rules.keySet().stream().noneMatch(key -> key.endsWith("/finalizers")), rules.toString());
        assertEquals("get,list,patch,watch", rules.get("apps /configmaps"), rules.toString());
    }
}
