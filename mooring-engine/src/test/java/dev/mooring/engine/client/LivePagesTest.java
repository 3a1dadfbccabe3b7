package dev.mooring.engine.client;

import static dev.mooring.engine.TestKinds.CONFIG_MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.OptionalLong;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

/** A paged list: its metadata, the pages it follows, and the end of it. */
class LivePagesTest {


    /** Pages by continue token: none -> the first. */
    private static LivePages<V1ConfigMap> list(Map<String, String> pages) {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
            String token = chain.request().url().queryParameter("continue");
            return new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1).code(200).message("OK")
                    .body(ResponseBody.create(pages.get(token == null ? "" : token), MediaType.get("application/json"))).build();
        }).build());
        return new LivePages<>(new KubeHttp(client), CONFIG_MAPS, "/api/v1/namespaces/ops/configmaps", Map.of("limit", "1"), null);
    }

    private static String page(String metadata, String... names) {
        StringBuilder items = new StringBuilder();
        for (String name : names) {
            items.append(items.isEmpty() ? "" : ",").append("{\"metadata\":{\"name\":\"").append(name).append("\",\"namespace\":\"ops\"}}");
        }
        return "{\"kind\":\"ConfigMapList\",\"metadata\":" + metadata + ",\"items\":[" + items + "]}";
    }

    @Test
    void aPageSaysItsVersionAndAnEstimateOfWhatRemainsAndIterationSkipsAnEmptyPage() {
        LivePages<V1ConfigMap> first = list(Map.of(
                "", page("{\"resourceVersion\":\"9\",\"continue\":\"t1\",\"remainingItemCount\":2}", "a"),
                "t1", page("{\"resourceVersion\":\"9\",\"continue\":\"t2\",\"remainingItemCount\":null}"),
                "t2", page("{\"resourceVersion\":\"9\",\"continue\":\"\"}", "b")));
        assertEquals("9", first.resourceVersion());
        assertEquals(OptionalLong.of(2), first.remainingItemCount());
        assertTrue(first.hasNextPage());
        assertEquals(OptionalLong.empty(), first.nextPage().remainingItemCount(), "a null estimate is none");
        assertEquals(List.of("a", "b"), first.stream().map(map -> map.getMetadata().getName()).toList(), "the empty page in between skipped");
        LivePages<V1ConfigMap> last = (LivePages<V1ConfigMap>) first.nextPage().nextPage();
        assertFalse(last.hasNextPage(), "an empty continue token ends the list");
        assertEquals("This was the last page of ConfigMap objects", assertThrows(NoSuchElementException.class, last::nextPage).getMessage());
        Iterator<V1ConfigMap> iterator = last.iterator();
        assertEquals("b", iterator.next().getMetadata().getName());
        assertThrows(NoSuchElementException.class, iterator::next);
    }

    @Test
    void anAnswerWithoutItemsOrMetadataIsAnEmptyLastPage() {
        LivePages<V1ConfigMap> empty = list(Map.of("", "{\"kind\":\"ConfigMapList\"}"));
        assertEquals(List.of(), empty.items());
        assertEquals(null, empty.resourceVersion());
        assertFalse(empty.hasNextPage());
        assertEquals(OptionalLong.empty(), empty.remainingItemCount());
    }
}
