package dev.mooring.engine.client;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.api.client.DeleteOptions;
import dev.mooring.api.client.ListOptions;
import dev.mooring.api.client.WriteOptions;
import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientRequestsTest {


    @Test
    void aDeleteSendsOnlyTheOptionsGiven() {
        assertEquals(Map.of(), ClientRequests.deleteQuery(DeleteOptions.DEFAULT));
        assertNull(ClientRequests.deleteBody(DeleteOptions.DEFAULT), "no precondition, no body");
        DeleteOptions all = DeleteOptions.DEFAULT.withPropagation(DeleteOptions.Propagation.FOREGROUND)
                .withGracePeriod(Duration.ZERO).withUid("u-1").asDryRun();
        assertEquals(Map.of("dryRun", "All", "propagationPolicy", "Foreground", "gracePeriodSeconds", "0"), ClientRequests.deleteQuery(all));
        assertEquals("{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\",\"preconditions\":{\"uid\":\"u-1\"}}",
                ClientRequests.deleteBody(all), "the UID alone");
        assertEquals("{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\",\"preconditions\":{\"uid\":\"u-1\",\"resourceVersion\":\"7\"}}",
                ClientRequests.deleteBody(DeleteOptions.guardedBy(new V1ConfigMap().metadata(new V1ObjectMeta().uid("u-1")
                        .resourceVersion("7")))));
    }

    @Test
    void selectorsAndDryRunAreQueryParameters() {
        assertEquals(Map.of(), ClientRequests.selection(ListOptions.DEFAULT));
        assertEquals(Map.of("labelSelector", "app=web", "fieldSelector", "metadata.name=a"),
                ClientRequests.selection(ListOptions.DEFAULT.withLabelSelector("app=web").withFieldSelector("metadata.name=a")));
        assertEquals(Map.of("dryRun", "All"), ClientRequests.dryRun(WriteOptions.DRY_RUN));
        assertEquals(Map.of(), ClientRequests.dryRun(WriteOptions.DEFAULT));
    }

    @Test
    void aWrittenObjectGetsTheResolvedKindOnlyWhereItHasNone() {
        JsonObject filled = JsonParser.parseString(ClientRequests.withKind(new V1ConfigMap().metadata(new V1ObjectMeta().name("a")),
                CONFIG_MAPS)).getAsJsonObject();
        assertEquals("v1", filled.get("apiVersion").getAsString());
        assertEquals("ConfigMap", filled.get("kind").getAsString());
        assertEquals("a", filled.getAsJsonObject("metadata").get("name").getAsString());
        JsonObject kept = JsonParser.parseString(ClientRequests.withKind(new V1ConfigMap().apiVersion("v9").kind("Other")
                .metadata(new V1ObjectMeta().name("a")), CONFIG_MAPS)).getAsJsonObject();
        assertEquals("v9", kept.get("apiVersion").getAsString());
        assertEquals("Other", kept.get("kind").getAsString());
    }

    /** Every page of a paged list asks with the first page's selectors and limit, plus the continue token. */
    @Test
    void theFollowUpPagesOfAListKeepItsSelectorsAndLimit() {
        java.util.List<okhttp3.HttpUrl> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        io.kubernetes.client.openapi.ApiClient client = new io.kubernetes.client.openapi.ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new okhttp3.OkHttpClient.Builder().addInterceptor(chain -> {
            asked.add(chain.request().url());
            boolean first = chain.request().url().queryParameter("continue") == null;
            String body = "{\"kind\":\"ConfigMapList\",\"metadata\":{\"resourceVersion\":\"9\"" + (first ? ",\"continue\":\"t1\"" : "")
                    + "},\"items\":[{\"metadata\":{\"name\":\"" + (first ? "a" : "b") + "\",\"namespace\":\"ops\"}}]}";
            return new okhttp3.Response.Builder().request(chain.request()).protocol(okhttp3.Protocol.HTTP_1_1).code(200).message("OK")
                    .body(okhttp3.ResponseBody.create(body, okhttp3.MediaType.get("application/json"))).build();
        }).build());
        Map<String, String> query = Map.of("labelSelector", "app=web", "fieldSelector", "metadata.name!=c", "limit", "1");
        LivePages<V1ConfigMap> pages = new LivePages<>(new KubeHttp(client), CONFIG_MAPS, "/api/v1/namespaces/ops/configmaps", query, null);
        java.util.List<String> names = new java.util.ArrayList<>();
        pages.forEach(map -> names.add(map.getMetadata().getName()));

        assertEquals(java.util.List.of("a", "b"), names);
        assertEquals(2, asked.size());
        for (okhttp3.HttpUrl url : asked) {
            for (Map.Entry<String, String> parameter : query.entrySet()) {
                assertEquals(parameter.getValue(), url.queryParameter(parameter.getKey()), parameter.getKey() + " of " + url);
            }
        }
        assertEquals("t1", asked.get(1).queryParameter("continue"));
    }
}
