package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.api.client.KubernetesException;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

/**
 * How discovery is read: aggregated first, the legacy documents when the server has no
 * aggregated discovery, and again when a kind looked for is missing. The documents are scripted;
 * the real API server's are read by every integration test.
 */
class DiscoveredKindsTest {

    private final List<String> requests = new CopyOnWriteArrayList<>();

    private DiscoveredKinds kinds(Function<Request, String> answers) {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
            Request request = chain.request();
            boolean aggregated = request.header("Accept").contains("apidiscovery.k8s.io");
            requests.add((aggregated ? "aggregated " : "") + request.url().encodedPath());
            String body = answers.apply(request);
            return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(body == null ? 404 : 200)
                    .message("scripted").body(ResponseBody.create(body == null ? "{\"kind\":\"Status\",\"code\":404}" : body,
                            MediaType.get("application/json"))).build();
        }).build());
        return new DiscoveredKinds(new KubeHttp(client));
    }

    @Test
    void aggregatedDiscoveryAnswersEveryKindAndItsSubresourcesWithTwoRequests() {
        DiscoveredKinds kinds = kinds(request -> request.url().encodedPath().equals("/api") ? DiscoveryDocuments.AGGREGATED_CORE
                : DiscoveryDocuments.AGGREGATED_APIS);

        ResourceType<V1Deployment> deployments = kinds.resolve(V1Deployment.class);
        ResourceType<V1ConfigMap> configMaps = kinds.resolve(V1ConfigMap.class);

        assertEquals("apps/v1", deployments.apiVersion());
        assertEquals("deployments", deployments.plural());
        assertEquals("configmaps", configMaps.plural());
        assertEquals(Set.of("scale", "status"), kinds.subresources(deployments));
        assertEquals(Set.of(), kinds.subresources(configMaps));
        assertEquals(List.of("aggregated /api", "aggregated /apis"), requests);
    }

    @Test
    void aServerWithoutAggregatedDiscoveryIsReadThroughItsGroupVersionDocuments() {
        DiscoveredKinds kinds = kinds(request -> switch (request.url().encodedPath()) {
            case "/api" -> "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"]}";
            case "/apis" -> "{\"kind\":\"APIGroupList\",\"groups\":[{\"name\":\"apps\",\"versions\":[{\"version\":\"v1\"}]}]}";
            case "/api/v1" -> "{\"kind\":\"APIResourceList\",\"resources\":[{\"name\":\"configmaps\",\"kind\":\"ConfigMap\","
                    + "\"namespaced\":true}]}";
            case "/apis/apps/v1" -> "{\"kind\":\"APIResourceList\",\"resources\":[{\"name\":\"deployments\",\"kind\":\"Deployment\","
                    + "\"namespaced\":true},{\"name\":\"deployments/scale\",\"kind\":\"Scale\",\"namespaced\":true}]}";
            default -> null;
        });

        ResourceType<V1Deployment> deployments = kinds.resolve(V1Deployment.class);

        assertEquals("apps/v1", deployments.apiVersion());
        assertEquals(Set.of("scale"), kinds.subresources(deployments));
        assertEquals(List.of("aggregated /api", "/apis", "/api/v1", "/apis/apps/v1"), requests,
                "aggregated discovery asked for once; the core group looked at first");
    }

    @Test
    void aKindMissingFromWhatWasReadIsLookedForOnceMoreThenRefusedWith404() {
        List<String> apis = new CopyOnWriteArrayList<>(List.of(
                "{\"kind\":\"APIGroupDiscoveryList\",\"items\":[]}", DiscoveryDocuments.AGGREGATED_APIS));
        DiscoveredKinds kinds = kinds(request -> request.url().encodedPath().equals("/api") ? DiscoveryDocuments.AGGREGATED_CORE
                : apis.size() > 1 ? apis.remove(0) : apis.get(0));

        assertEquals(Set.of(), kinds.subresources(kinds.resolve(V1ConfigMap.class)));
        assertEquals("example.com/v2", kinds.served("example.com/v2", "Widget").orElseThrow().apiVersion(),
                "a CRD installed after the first read is found by reading again");
        KubernetesException missing = assertThrows(KubernetesException.class,
                () -> kinds.resolve(io.kubernetes.client.openapi.models.V1Job.class));
        assertEquals(404, missing.code());
        assertEquals(List.of("aggregated /api", "aggregated /apis", "aggregated /api", "aggregated /apis", "aggregated /api",
                "aggregated /apis"), requests);
    }

    /** A model of a kind two groups serve, named like client-java's generator names one. */
    static class V2Widget extends V1ConfigMap {
    }

    /** The same, its group pinned. */
    @dev.mooring.api.ApiGroup("b.example.com")
    static class PinnedV2Widget extends V1ConfigMap {
    }

    private static final String TWO_WIDGET_GROUPS = """
            {"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","items":[
              {"metadata":{"name":"a.example.com"},"versions":[{"version":"v2","resources":[
                {"resource":"widgets","responseKind":{"kind":"Widget"},"scope":"Namespaced"}]}]},
              {"metadata":{"name":"b.example.com"},"versions":[{"version":"v2","resources":[
                {"resource":"widgets","responseKind":{"kind":"Widget"},"scope":"Cluster"}]}]}]}""";

    @Test
    void aKindSeveralGroupsServeResolvesToTheFirstWithAWarningNamingThemAndApiGroupPinsIt() {
        DiscoveredKinds kinds = kinds(request -> request.url().encodedPath().equals("/api") ? DiscoveryDocuments.AGGREGATED_CORE
                : TWO_WIDGET_GROUPS);
        List<String> warnings = new CopyOnWriteArrayList<>();
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(DiscoveredKinds.class.getName());
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                warnings.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(handler);
        try {
            assertEquals("a.example.com/v2", kinds.resolve(V2Widget.class).apiVersion());
            assertEquals(1, warnings.size(), warnings.toString());
            org.junit.jupiter.api.Assertions.assertTrue(warnings.get(0).contains("[a.example.com, b.example.com]")
                    && warnings.get(0).contains("@dev.mooring.api.ApiGroup"), warnings.get(0));

            ResourceType<PinnedV2Widget> pinned = kinds.resolve(PinnedV2Widget.class);
            assertEquals("b.example.com/v2", pinned.apiVersion());
            assertEquals(false, pinned.namespaced(), "b's widgets are cluster-scoped");
            assertEquals(1, warnings.size(), "no warning for a pinned group");
        } finally {
            log.removeHandler(handler);
        }
    }

    @Test
    void aPinnedGroupThatDoesNotServeTheKindIsRefusedNamingTheGroup() {
        @dev.mooring.api.ApiGroup("c.example.com")
        class ElsewhereV2Widget extends V1ConfigMap {
        }
        DiscoveredKinds kinds = kinds(request -> request.url().encodedPath().equals("/api") ? DiscoveryDocuments.AGGREGATED_CORE
                : TWO_WIDGET_GROUPS);
        KubernetesException missing = assertThrows(KubernetesException.class, () -> kinds.resolve(ElsewhereV2Widget.class));
        assertEquals(404, missing.code());
        org.junit.jupiter.api.Assertions.assertTrue(missing.getMessage().contains("of group c.example.com"), missing.getMessage());
    }
}
