package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.mooring.api.client.KubernetesException;
import io.kubernetes.client.openapi.ApiClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

/** {@link KubeHttp#streamList}: a list decoded item by item as the answer is read, not held whole. */
class StreamedListTest {

    private static final int ITEMS = 5000;

    /** The answer's bytes, counting how many the client has read so far. */
    private byte[] answer;
    private int code = 200;
    private final AtomicLong read = new AtomicLong();

    private KubeHttp http() {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> new Response.Builder().request(chain.request())
                .protocol(Protocol.HTTP_1_1).code(code).message("scripted")
                .body(ResponseBody.create(okio.Okio.buffer(counting(new java.io.ByteArrayInputStream(answer))),
                        MediaType.get("application/json"), answer.length)).build()).build());
        return new KubeHttp(client);
    }

    private okio.Source counting(java.io.InputStream in) {
        okio.Source source = okio.Okio.source(in);
        return new okio.ForwardingSource(source) {
            @Override
            public long read(okio.Buffer sink, long byteCount) throws java.io.IOException {
                long n = super.read(sink, Math.min(byteCount, 4096));
                if (n > 0) {
                    read.addAndGet(n);
                }
                return n;
            }
        };
    }

    private static String item(int i) {
        return "{\"metadata\":{\"name\":\"c" + i + "\",\"namespace\":\"ops\"},\"data\":{\"payload\":\"" + "x".repeat(200) + "\"}}";
    }

    private static String list(String beforeItems, List<String> items, String afterItems) {
        return "{\"kind\":\"ConfigMapList\"," + beforeItems + "\"items\":[" + String.join(",", items) + "]" + afterItems + "}";
    }

    @Test
    void eachItemIsHandedOverBeforeTheRestOfTheAnswerIsRead() {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            items.add(item(i));
        }
        answer = list("\"metadata\":{\"resourceVersion\":\"42\",\"continue\":\"next\"},", items, "")
                .getBytes(StandardCharsets.UTF_8);
        List<String> names = new ArrayList<>();
        List<Long> readAt = new ArrayList<>();
        JsonObject metadata = http().streamList("/api/v1/namespaces/ops/configmaps", Map.of("limit", "500"), object -> {
            names.add(object.getAsJsonObject("metadata").get("name").getAsString());
            readAt.add(read.get());
        });
        assertEquals(ITEMS, names.size());
        assertEquals("c0", names.get(0));
        assertEquals("c" + (ITEMS - 1), names.get(ITEMS - 1));
        assertEquals("42", metadata.get("resourceVersion").getAsString());
        assertEquals("next", metadata.get("continue").getAsString());
        // the answer is about 1.2 MB; the first item arrives after a few buffers of it, not after all of it
        assertTrue(readAt.get(0) < 64 * 1024, "bytes read before the first item: " + readAt.get(0) + " of " + answer.length);
        assertTrue(readAt.get(ITEMS / 2) < answer.length * 0.6, "bytes read at the middle item: " + readAt.get(ITEMS / 2));
    }

    @Test
    void metadataAfterTheItemsAndUnknownMembersAreReadToo() {
        answer = list("\"apiVersion\":\"v1\",\"extra\":{\"nested\":[1,2,{\"a\":null}]},", List.of(item(1), item(2)),
                ",\"metadata\":{\"resourceVersion\":\"7\"}").getBytes(StandardCharsets.UTF_8);
        List<JsonObject> seen = new ArrayList<>();
        JsonObject metadata = http().streamList("/api/v1/configmaps", Map.of(), seen::add);
        assertEquals(2, seen.size());
        assertEquals("7", metadata.get("resourceVersion").getAsString());
    }

    @Test
    void anAnswerThatIsNotAListNamesTheRequest() {
        answer = "{\"items\":[{\"metadata\":{}},42]}".getBytes(StandardCharsets.UTF_8);
        List<JsonObject> seen = new ArrayList<>();
        KubernetesException e = assertThrows(KubernetesException.class, () -> http().streamList("/api/v1/configmaps", Map.of(), seen::add));
        assertTrue(e.getMessage().contains("GET /api/v1/configmaps") && e.getMessage().contains("not a list"), e.getMessage());
        assertEquals(1, seen.size(), "the item before the bad one was handed over");

        answer = "[1,2]".getBytes(StandardCharsets.UTF_8);
        e = assertThrows(KubernetesException.class, () -> http().streamList("/api/v1/configmaps", Map.of(), seen::add));
        assertTrue(e.getMessage().contains("not a list"), e.getMessage());
    }

    @Test
    void aTruncatedAnswerFailsInsteadOfEndingTheListEarly() {
        String whole = list("\"metadata\":{\"resourceVersion\":\"9\"},", List.of(item(1), item(2), item(3)), "");
        answer = whole.substring(0, whole.length() - 60).getBytes(StandardCharsets.UTF_8);
        List<JsonObject> seen = new ArrayList<>();
        KubernetesException e = assertThrows(KubernetesException.class, () -> http().streamList("/api/v1/configmaps", Map.of(), seen::add));
        assertTrue(e.getMessage().startsWith("GET /api/v1/configmaps"), e.getMessage());
        assertEquals(2, seen.size());
    }

    @Test
    void aRefusalIsTheServersStatus() {
        code = 403;
        answer = ("{\"kind\":\"Status\",\"reason\":\"Forbidden\",\"message\":\"configmaps is forbidden: User \\\"x\\\" cannot list\"}")
                .getBytes(StandardCharsets.UTF_8);
        KubernetesException e = assertThrows(KubernetesException.class, () -> http().streamList("/api/v1/configmaps", Map.of(), item -> { }));
        assertEquals(403, e.code());
        assertTrue(e.getMessage().contains("cannot list"), e.getMessage());
    }
}
