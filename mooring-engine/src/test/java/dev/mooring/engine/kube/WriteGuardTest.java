package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubernetes.client.openapi.ApiClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

/** The write guard of a connection: a write is checked just before it is sent, a read never. */
class WriteGuardTest {

    private final List<String> sent = new CopyOnWriteArrayList<>();

    private KubeHttp http() {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
            sent.add(chain.request().method() + " " + chain.request().url().encodedPath());
            return new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1).code(200).message("OK")
                    .body(ResponseBody.create("{}", MediaType.get("application/json"))).build();
        }).build());
        return new KubeHttp(client);
    }

    @Test
    void aWriteAfterTheGuardClosedIsRefusedUnsentAndReadsGoOn() {
        AtomicBoolean leading = new AtomicBoolean(true);
        KubeHttp guarded = http().guardWrites(leading::get, "the leadership expired");
        String path = "/api/v1/namespaces/ops/configmaps";
        guarded.send("POST", path, Map.of(), "{}", "application/json");
        leading.set(false);
        for (String method : List.of("POST", "PUT", "PATCH", "DELETE")) {
            KubeHttp.WriteRefused refused = assertThrows(KubeHttp.WriteRefused.class,
                    () -> guarded.send(method, path + "/a", Map.of(), "{}", "application/json"), method);
            assertEquals(method + " " + path + "/a not sent: the leadership expired", refused.getMessage());
        }
        guarded.send("GET", path, Map.of(), null, null);
        assertEquals(List.of("POST " + path, "GET " + path), sent, "only the write before the guard closed, and the read");
    }

    @Test
    void theAnswersOfWritesAreObservedNotThoseOfReadsDryRunsOrRefusals() {
        List<String> observed = new CopyOnWriteArrayList<>();
        AtomicBoolean leading = new AtomicBoolean(true);
        KubeHttp http = http().guardWrites(leading::get, "the leadership expired")
                .observeWrites(answer -> observed.add(answer.toString()));
        String path = "/api/v1/namespaces/ops/configmaps";
        http.send("POST", path, Map.of(), "{}", "application/json");
        http.send("PATCH", path + "/a", Map.of("dryRun", "All"), "{}", "application/merge-patch+json");
        http.send("GET", path + "/a", Map.of(), null, null);
        http.get(path, Map.of());
        leading.set(false);
        assertThrows(KubeHttp.WriteRefused.class, () -> http.send("DELETE", path + "/a", Map.of(), null, null), "the guard is kept");
        assertEquals(List.of("{}"), observed, "the POST's answer only");
        leading.set(true);
        http.guardWrites(() -> true, "never").send("PUT", path + "/a", Map.of(), "{}", "application/json");
        assertEquals(2, observed.size(), "a guard added later keeps the observer");
    }
}
