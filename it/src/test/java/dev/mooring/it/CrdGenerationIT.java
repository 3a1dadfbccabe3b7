package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.it.crd.Gizmo;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A CRD generated from a class is accepted by the real API server (a structural schema), which
 * then enforces it: defaults are applied, and each kind of constraint rejects a violating
 * object with a message naming the field. The generated Deployment and Service are valid.
 */
class CrdGenerationIT {

    private static final KubeHttp HTTP = new KubeHttp(Testbed.client());
    private static String gizmos;

    @BeforeAll
    static void install() throws Exception {
        dev.mooring.it.Crds.install(HTTP, "crd.mooring.dev", "v1", "gizmos", dev.mooring.manifests.Crds.of(List.of(Gizmo.class)).get(0).toString());
        String namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "crd");
        gizmos = "/apis/crd.mooring.dev/v1/namespaces/" + namespace + "/gizmos";
    }

    @Test
    void aValidObjectIsStoredWithItsDefaults() {
        JsonObject created = create("valid", "{\"size\":2,\"model\":\"alpha\",\"speed\":\"FAST\",\"port\":8080,\"tags\":[\"a\"],"
                + "\"labels\":{\"k\":\"v\"},\"parts\":[{\"name\":\"p\",\"count\":1}]}");
        assertEquals("basic", created.getAsJsonObject("spec").get("tier").getAsString(), created.toString());
        JsonObject named = create("named-port", "{\"size\":1,\"port\":\"http\"}");
        assertEquals("http", named.getAsJsonObject("spec").get("port").getAsString(), "int-or-string takes a string too");
    }

    @Test
    void eachConstraintRejectsAViolationNamingTheField() {
        Map<String, String> violations = new java.util.LinkedHashMap<>();
        violations.put("{}", "spec.size");                                            // @NotNull
        violations.put("{\"size\":0}", "spec.size");                                  // @Min
        violations.put("{\"size\":6}", "spec.size");                                  // @Max
        violations.put("{\"size\":1,\"model\":\"Alpha\"}", "spec.model");             // @Pattern
        violations.put("{\"size\":1,\"speed\":\"WARP\"}", "spec.speed");              // enum
        violations.put("{\"size\":1,\"tags\":[\"a\",\"b\",\"c\"]}", "spec.tags");     // @Size
        violations.put("{\"size\":1,\"labels\":{\"k\":1}}", "spec.labels");           // Map<String, String>
        violations.put("{\"size\":1,\"parts\":[{\"count\":1}]}", "spec.parts");       // @NotNull in a list item
        violations.put("{\"size\":1,\"parts\":[{\"name\":\"p\"},{\"name\":\"p\"}]}", "spec.parts"); // list map keys unique
        violations.put("{\"size\":3,\"maxSize\":2}", "size must not exceed maxSize"); // CEL rule
        int i = 0;
        for (Map.Entry<String, String> violation : violations.entrySet()) {
            String name = "bad-" + i++;
            KubernetesException rejected = assertThrows(KubernetesException.class, () -> create(name, violation.getKey()),
                    violation.getKey());
            assertEquals(422, rejected.code(), rejected.getMessage());
            assertTrue(rejected.getMessage().contains(violation.getValue()), violation.getKey() + ": " + rejected.getMessage());
        }
    }

    /** The scale subresource of @ScaleSubresource: kubectl scale works on the custom resource, within its constraints. */
    @Test
    void theScaleSubresourceScalesTheDeclaredField() {
        create("scaled", "{\"size\":2}");
        String scale = gizmos + "/scaled/scale";
        assertEquals(2, HTTP.get(scale, Map.of()).getAsJsonObject("spec").get("replicas").getAsInt());
        HTTP.send("PATCH", scale, Map.of(), "{\"spec\":{\"replicas\":4}}", "application/merge-patch+json");
        assertEquals(4, HTTP.get(gizmos + "/scaled", Map.of()).getAsJsonObject("spec").get("size").getAsInt());
        KubernetesException tooMany = assertThrows(KubernetesException.class, () -> HTTP.send("PATCH", scale, Map.of(),
                "{\"spec\":{\"replicas\":9}}", "application/merge-patch+json"));
        assertEquals(422, tooMany.code(), tooMany.getMessage());
    }

    /** The generated Deployment and Service pass the API server's validation (a server-side dry run). */
    @Test
    void theGeneratedWorkloadIsValid() {
        String namespace = gizmos.split("/")[5];
        var settings = new dev.mooring.manifests.Workload.Settings(dev.mooring.manifests.GenerateManifests.Options.builder()
                .name("gizmos").namespace(namespace).image("example/gizmos:1").build(), 2, "gizmos", true,
                dev.mooring.manifests.Certificates.Mode.SELF_MANAGED);
        JsonObject deployment = HTTP.send("POST", "/apis/apps/v1/namespaces/" + namespace + "/deployments", Map.of("dryRun", "All"),
                dev.mooring.manifests.Workload.deployment(settings).toString(), "application/json");
        assertEquals(2, deployment.getAsJsonObject("spec").get("replicas").getAsInt());
        JsonObject service = HTTP.send("POST", "/api/v1/namespaces/" + namespace + "/services", Map.of("dryRun", "All"),
                dev.mooring.manifests.Workload.service(settings).toString(), "application/json");
        assertEquals(443, service.getAsJsonObject("spec").getAsJsonArray("ports").get(0).getAsJsonObject().get("port").getAsInt());
    }

    private static JsonObject create(String name, String spec) {
        return HTTP.send("POST", gizmos, Map.of(), "{\"apiVersion\":\"crd.mooring.dev/v1\",\"kind\":\"Gizmo\",\"metadata\":{\"name\":\""
                + name + "\"},\"spec\":" + spec + "}", "application/json");
    }
}
