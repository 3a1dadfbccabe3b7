package dev.mooring.engine.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.TerminalException;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.WriteOptions;
import dev.mooring.engine.kube.DiscoveredKinds;
import dev.mooring.engine.kube.DiscoveryDocuments;
import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

/**
 * The requests the live client sends for each operation, and what it makes of the answers, over a
 * scripted API that serves discovery, answers a GET from what it holds and echoes writes. What the
 * API server decides about them is WritesIT's and LiveClientIT's.
 */
class LiveResourceClientTest {

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final Map<String, String> stored = new ConcurrentHashMap<>();
    private final Map<String, Integer> refusals = new ConcurrentHashMap<>();
    private final LiveResourceClient client;

    LiveResourceClientTest() {
        ApiClient api = new ApiClient().setBasePath("http://api.invalid");
        api.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> answer(chain.request())).build());
        KubeHttp http = new KubeHttp(api);
        client = new LiveResourceClient(http, new DiscoveredKinds(http), "ops");
    }

    private Response answer(Request request) throws java.io.IOException {
        String path = request.url().encodedPath();
        if (path.equals("/api") || path.equals("/apis")) {
            return respond(request, 200, path.equals("/api") ? DiscoveryDocuments.AGGREGATED_CORE : DiscoveryDocuments.AGGREGATED_APIS);
        }
        String body = "";
        if (request.body() != null) {
            okio.Buffer buffer = new okio.Buffer();
            request.body().writeTo(buffer);
            body = buffer.readUtf8();
        }
        String query = request.url().encodedQuery();
        requests.add(request.method() + " " + path + (query == null ? "" : "?" + query)
                + (request.body() == null ? "" : " " + request.body().contentType() + " " + body));
        Integer refused = refusals.get(request.method() + " " + path);
        if (refused != null) {
            return respond(request, refused, "{\"kind\":\"Status\",\"code\":" + refused + ",\"message\":\"scripted\"}");
        }
        return switch (request.method()) {
            case "GET" -> stored.containsKey(path) ? respond(request, 200, stored.get(path))
                    : respond(request, 404, "{\"kind\":\"Status\",\"code\":404,\"reason\":\"NotFound\"}");
            case "POST", "PUT" -> respond(request, 200, body);
            case "DELETE" -> respond(request, 200, "{\"kind\":\"Status\",\"status\":\"Success\"}");
            default -> respond(request, 200, stored.getOrDefault(path.replace("/status", "").replace("/scale", ""), "{}"));
        };
    }

    private static Response respond(Request request, int code, String body) {
        return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(code).message("scripted")
                .body(ResponseBody.create(body, MediaType.get("application/json"))).build();
    }

    private void store(String name, String finalizers, boolean deleting) {
        stored.put("/api/v1/namespaces/ops/configmaps/" + name, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name + "\",\"namespace\":\"ops\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\"7\"" + (finalizers == null ? ""
                        : ",\"finalizers\":[" + finalizers + "]") + (deleting ? ",\"deletionTimestamp\":\"2026-12-07T00:00:00Z\"" : "")
                + "},\"data\":{\"k\":\"v\"}}");
    }

    private static V1ConfigMap fetched(String name) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name(name).uid("u-" + name).resourceVersion("7"));
    }

    @Test
    void aGetIsTheObjectOrEmptyAndARefusalIsThrown() {
        store("a", null, false);
        assertEquals("v", client.get(V1ConfigMap.class, null, "a").orElseThrow().getData().get("k"), "the default namespace");
        assertTrue(client.get(V1ConfigMap.class, "ops", "missing").isEmpty());
        refusals.put("GET /api/v1/namespaces/ops/configmaps/secret", 403);
        assertEquals(403, assertThrows(KubernetesException.class, () -> client.get(V1ConfigMap.class, "ops", "secret")).code());
    }

    @Test
    void writesGoToTheirPathsWithTheKindFilledInAndDryRunAsked() {
        V1ConfigMap map = new V1ConfigMap().metadata(new V1ObjectMeta().name("a")).data(Map.of("k", "v"));
        assertEquals("a", client.create(map, WriteOptions.DEFAULT).getMetadata().getName());
        map.getMetadata().setResourceVersion("3");
        client.update(map, WriteOptions.DRY_RUN);
        assertEquals(2, requests.size(), requests.toString());
        assertTrue(requests.get(0).startsWith("POST /api/v1/namespaces/ops/configmaps application/json {")
                && requests.get(0).endsWith("\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}"), "the kind filled in: " + requests.get(0));
        assertTrue(requests.get(1).startsWith("PUT /api/v1/namespaces/ops/configmaps/a?dryRun=All application/json {")
                && requests.get(1).contains("\"resourceVersion\":\"3\""), requests.get(1));
        assertEquals("A created object needs metadata.name or metadata.generateName", assertThrows(IllegalArgumentException.class,
                () -> client.create(new V1ConfigMap().metadata(new V1ObjectMeta()), WriteOptions.DEFAULT)).getMessage());
        assertEquals("A update needs an object with metadata.name", assertThrows(IllegalArgumentException.class,
                () -> client.update(new V1ConfigMap().metadata(new V1ObjectMeta()), WriteOptions.DEFAULT)).getMessage());
    }

    @Test
    void saveCreatesAnUnknownObjectUpdatesAKnownOneAndReadsTheVersionOfOneNamedOnly() {
        V1ConfigMap fresh = new V1ConfigMap().metadata(new V1ObjectMeta().name("fresh"));
        client.save(fresh, WriteOptions.DEFAULT);
        store("named", null, false);
        client.save(new V1ConfigMap().metadata(new V1ObjectMeta().name("named")), WriteOptions.DEFAULT);
        client.save(new V1ConfigMap().metadata(new V1ObjectMeta().name("versioned").resourceVersion("9")), WriteOptions.DEFAULT);
        assertEquals(List.of("GET /api/v1/namespaces/ops/configmaps/fresh", "POST /api/v1/namespaces/ops/configmaps",
                "GET /api/v1/namespaces/ops/configmaps/named", "PUT /api/v1/namespaces/ops/configmaps/named",
                "PUT /api/v1/namespaces/ops/configmaps/versioned"),
                requests.stream().map(request -> request.split(" ")[0] + " " + request.split(" ")[1]).toList());
        assertTrue(requests.get(3).contains("\"resourceVersion\":\"7\""), "the stored version: " + requests.get(3));
    }

    @Test
    void statusAndScaleGoToTheirSubresourcesWhereTheServerHasThem() {
        stored.put("/apis/apps/v1/namespaces/ops/deployments/web", "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":"
                + "{\"name\":\"web\",\"namespace\":\"ops\",\"uid\":\"u-web\",\"resourceVersion\":\"4\"},\"spec\":{\"replicas\":3,"
                + "\"selector\":{},\"template\":{}}}");
        V1Deployment web = new V1Deployment().metadata(new V1ObjectMeta().name("web").namespace("ops"))
                .spec(new V1DeploymentSpec().replicas(1).selector(new io.kubernetes.client.openapi.models.V1LabelSelector())
                        .template(new io.kubernetes.client.openapi.models.V1PodTemplateSpec()));
        assertEquals(3, client.scale(web, 3).getSpec().getReplicas(), "the object as read after the scale");
        client.updateStatus(web, WriteOptions.DEFAULT);
        assertEquals("PATCH /apis/apps/v1/namespaces/ops/deployments/web/scale application/merge-patch+json {\"spec\":{\"replicas\":3}}",
                requests.get(0));
        assertTrue(requests.get(2).startsWith("PUT /apis/apps/v1/namespaces/ops/deployments/web/status "), requests.toString());
        assertEquals("replicas must be 0 or more, got -1",
                assertThrows(IllegalArgumentException.class, () -> client.scale(web, -1)).getMessage());
        assertEquals("ConfigMap (v1) has no scale subresource on this API server",
                assertThrows(IllegalArgumentException.class, () -> client.scale(fetched("a"), 1)).getMessage());
        assertEquals("ConfigMap (v1) has no status subresource on this API server",
                assertThrows(IllegalArgumentException.class, () -> client.updateStatus(fetched("a"), WriteOptions.DEFAULT)).getMessage());
        assertEquals(3, requests.size(), "nothing sent for what is refused");
        client.scale(web, 0);
        assertEquals("PATCH /apis/apps/v1/namespaces/ops/deployments/web/scale application/merge-patch+json {\"spec\":{\"replicas\":0}}",
                requests.get(3), "to zero");
    }

    @Test
    void aMutationIsOneGuardedPatchOfItsChangesAndNoneWithoutAny() {
        store("a", null, false);
        client.mutate(fetched("a"), map -> { });
        client.mutate(fetched("a"), map -> map.getData().put("k", "w"));
        assertEquals(List.of("GET /api/v1/namespaces/ops/configmaps/a", "GET /api/v1/namespaces/ops/configmaps/a",
                "PATCH /api/v1/namespaces/ops/configmaps/a application/json-patch+json [{\"op\":\"test\",\"path\":"
                        + "\"/metadata/uid\",\"value\":\"u-a\"},{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"7\"},"
                        + "{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"w\"}]"), requests);
        assertEquals("A status mutation can only change status fields, not /data/k", assertThrows(IllegalArgumentException.class,
                () -> client.mutateStatus(fetched("a"), map -> map.getData().put("k", "x"))).getMessage());
        V1ConfigMap replaced = fetched("a");
        replaced.getMetadata().setUid("u-older");
        assertEquals(409, assertThrows(KubernetesException.class, () -> client.mutate(replaced, map -> { })).code());
        assertEquals(404, assertThrows(KubernetesException.class, () -> client.mutate(fetched("gone"), map -> { })).code());
        assertEquals("mutate needs a fetched object with metadata.name and metadata.uid", assertThrows(IllegalArgumentException.class,
                () -> client.mutate(new V1ConfigMap().metadata(new V1ObjectMeta().name("a")), map -> { })).getMessage());
        assertEquals("An empty JSON Patch changes nothing: skip the write instead", assertThrows(IllegalArgumentException.class,
                () -> client.patch(fetched("a"), jakarta.json.Json.createArrayBuilder().build())).getMessage());
    }

    @Test
    void finalizersAreAddedOnceRemovedByNameAndNotAddedToAnObjectBeingDeleted() {
        store("a", "\"other.example/keep\"", false);
        client.ensureFinalizer(fetched("a"), "example.com/cleanup");
        assertTrue(requests.get(1).contains("{\"op\":\"replace\",\"path\":\"/metadata/finalizers\",\"value\":[\"other.example/keep\","
                + "\"example.com/cleanup\"]}") || requests.get(1).contains("\"path\":\"/metadata/finalizers/1\",\"value\":\"example.com/cleanup\""),
                requests.toString());
        requests.clear();
        store("a", "\"other.example/keep\",\"example.com/cleanup\"", false);
        client.ensureFinalizer(fetched("a"), "example.com/cleanup");
        assertEquals(1, requests.size(), "present already: the read only");
        client.removeFinalizer(fetched("a"), "example.com/absent");
        assertEquals(2, requests.size(), "absent: the read only");
        client.removeFinalizer(fetched("a"), "example.com/cleanup");
        assertTrue(requests.get(3).startsWith("PATCH") && !requests.get(3).contains("example.com/cleanup\"]")
                && requests.get(3).contains("other.example/keep"), requests.get(3));

        store("b", null, true);
        assertThrows(TerminalException.class, () -> client.ensureFinalizer(fetched("b"), "example.com/cleanup"));
        V1ConfigMap deleting = fetched("b");
        deleting.getMetadata().setDeletionTimestamp(java.time.OffsetDateTime.now());
        assertTrue(assertThrows(TerminalException.class, () -> client.addFinalizer(deleting, "example.com/cleanup")).getMessage()
                .endsWith("its deletion has begun"));
        V1ConfigMap marked = fetched("c");
        marked.getMetadata().setFinalizers(new ArrayList<>(List.of("example.com/cleanup")));
        int before = requests.size();
        assertSame(marked, client.addFinalizer(marked, "example.com/cleanup"), "a cached object with the finalizer: no request");
        assertEquals(before, requests.size());
        int sent = requests.size();
        for (String wrong : new String[] {null, " ", "cleanup", "/cleanup", "example.com/"}) {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> client.addFinalizer(fetched("a"), wrong)).getMessage()
                    .startsWith("Use a qualified finalizer name such as example.com/cleanup"), String.valueOf(wrong));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> client.ensureFinalizer(fetched("a"), wrong)).getMessage()
                    .startsWith("Use a qualified finalizer name such as example.com/cleanup"), String.valueOf(wrong));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> client.removeFinalizer(fetched("a"), wrong)).getMessage()
                    .startsWith("Use a qualified finalizer name such as example.com/cleanup"), String.valueOf(wrong));
        }
        assertEquals(sent, requests.size(), "nothing sent, not even a read, for a name refused");
    }

    @Test
    void finalizerChangesAnswerTheObjectAsStored() {
        store("a", "\"other.example/keep\"", false);
        V1ConfigMap present = client.removeFinalizer(fetched("a"), "example.com/absent");
        assertEquals(List.of("other.example/keep"), present.getMetadata().getFinalizers(), "nothing to remove: the object as read");
        V1ConfigMap added = client.ensureFinalizer(fetched("a"), "example.com/cleanup");
        assertEquals("a", added.getMetadata().getName(), "the patched object as the server answered");
        store("a", "\"example.com/cleanup\"", false);
        V1ConfigMap held = client.ensureFinalizer(fetched("a"), "example.com/cleanup");
        assertEquals(List.of("example.com/cleanup"), held.getMetadata().getFinalizers(), "present already: the object as read");
        V1ConfigMap removed = client.removeFinalizer(fetched("a"), "example.com/cleanup");
        assertEquals("a", removed.getMetadata().getName());
        assertEquals("v", client.mutate(fetched("a"), map -> map.getData().put("k", "w")).getData().get("k"),
                "the patched object as the server answered");
        assertEquals("v", client.mutate(fetched("a"), map -> { }).getData().get("k"), "no change: the object as read");
    }

    @Test
    void aGuardedDeleteNeedsAFetchedObjectAndAMissingOneIsFalse() {
        assertTrue(client.delete(fetched("a")));
        assertEquals("DELETE /api/v1/namespaces/ops/configmaps/a application/json {\"apiVersion\":\"v1\",\"kind\":"
                + "\"DeleteOptions\",\"preconditions\":{\"uid\":\"u-a\",\"resourceVersion\":\"7\"}}", requests.get(0));
        refusals.put("DELETE /api/v1/namespaces/ops/configmaps/gone", 404);
        assertFalse(client.delete(fetched("gone")));
        refusals.put("DELETE /api/v1/namespaces/ops/configmaps/held", 409);
        assertEquals(409, assertThrows(KubernetesException.class, () -> client.delete(fetched("held"))).code());
        assertEquals("A guarded delete needs a fetched object with name, uid and resourceVersion", assertThrows(
                IllegalArgumentException.class, () -> client.delete(new V1ConfigMap().metadata(new V1ObjectMeta().name("a")))).getMessage());
    }

    @Test
    void anApplyIsForcedUnderItsFieldManager() {
        client.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name("a")).data(Map.of("k", "v")), "mooring-maps", WriteOptions.DEFAULT);
        String sent = requests.get(0);
        assertTrue(sent.startsWith("PATCH /api/v1/namespaces/ops/configmaps/a?") && sent.contains("fieldManager=mooring-maps")
                && sent.contains("force=true") && sent.contains("application/apply-patch+yaml"), sent);
        for (String wrong : new String[] {null, " ", "m".repeat(129)}) {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> client.apply(fetched("a"), wrong, WriteOptions.DEFAULT))
                    .getMessage().startsWith("A field manager needs 1 to 128 characters"));
        }
        assertEquals("An applied object needs metadata.name", assertThrows(IllegalArgumentException.class,
                () -> client.apply(new V1ConfigMap().metadata(new V1ObjectMeta()), "m", WriteOptions.DEFAULT)).getMessage());
        assertEquals(1, requests.size());
        client.apply(fetched("a"), "m".repeat(128), WriteOptions.DEFAULT);
        assertTrue(requests.get(1).contains("fieldManager=" + "m".repeat(128)), "128 characters are enough");
    }
}
