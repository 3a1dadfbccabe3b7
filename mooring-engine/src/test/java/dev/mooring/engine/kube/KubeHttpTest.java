package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.mooring.api.client.KubernetesException;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

/**
 * {@link KubeHttp}: what a request carries (method, query, headers, body, the call's time bound) and what each kind of
 * answer becomes — a JSON object, text up to a limit, nothing for a 404, or an exception naming the request.
 */
class KubeHttpTest {

    private static final String PATH = "/api/v1/namespaces/ops/configmaps/a";

    private final List<Request> requests = new ArrayList<>();
    private final List<Long> timeoutsNanos = new ArrayList<>();
    private final List<String> bodies = new ArrayList<>();
    private int code = 200;
    private String answer = "{\"kind\":\"ConfigMap\"}";
    private boolean noAnswer;
    private ApiClient client;

    private KubeHttp http() {
        client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
            requests.add(chain.request());
            timeoutsNanos.add(chain.call().timeout().timeoutNanos());
            if (chain.request().body() != null) {
                okio.Buffer buffer = new okio.Buffer();
                chain.request().body().writeTo(buffer);
                bodies.add(buffer.readUtf8());
            }
            if (noAnswer) {
                throw new java.net.ConnectException("Connection refused");
            }
            return new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1).code(code).message("scripted")
                    .body(ResponseBody.create(answer, MediaType.get("application/json"))).build();
        }).build());
        return new KubeHttp(client);
    }

    @Test
    void aRequestCarriesItsMethodQueryHeadersAndBody() {
        KubeHttp http = http();
        assertSame(client, http.apiClient());
        JsonObject answered = http.send("PATCH", PATH, Map.of("fieldManager", "mooring"), "{\"data\":{}}",
                "application/merge-patch+json");
        assertEquals("ConfigMap", answered.get("kind").getAsString());
        Request request = requests.get(0);
        assertEquals("PATCH", request.method());
        assertEquals("http://api.invalid" + PATH + "?fieldManager=mooring", request.url().toString());
        assertEquals("application/json", request.header("Accept"));
        assertEquals(KubeHttp.USER_AGENT, request.header("User-Agent"));
        assertTrue(KubeHttp.USER_AGENT.startsWith("Mooring/"), KubeHttp.USER_AGENT);
        assertTrue(request.body().contentType().toString().startsWith("application/merge-patch+json"),
                request.body().contentType().toString());
        assertEquals(List.of("{\"data\":{}}"), bodies);
        assertEquals(0, timeoutsNanos.get(0), "no time bound unless asked");

        http.get("/apis", Map.of(), "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
        assertEquals("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", requests.get(1).header("Accept"));
        assertEquals("GET", requests.get(1).method());
        http.get(PATH, Map.of("resourceVersion", "0"));
        assertEquals("resourceVersion=0", requests.get(2).url().query());
        assertEquals(null, requests.get(2).body());
    }

    @Test
    void aTimeBoundIsTheWholeCallsAndNeverZero() {
        KubeHttp http = http();
        http.send("GET", PATH, Map.of(), null, null, Duration.ofMillis(1500));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1500), timeoutsNanos.get(0));
        boundOnly(() -> http.getOptional(PATH, Map.of(), Duration.ofNanos(10))); // under a millisecond: one, not none
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1), timeoutsNanos.get(1));
        http.getText(PATH + "/log", Map.of(), Duration.ofSeconds(3), 10);
        assertEquals(TimeUnit.SECONDS.toNanos(3), timeoutsNanos.get(2));
        boundOnly(() -> http.getText(PATH + "/log", Map.of(), Duration.ZERO, 10));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1), timeoutsNanos.get(3));
    }

    /**
     * Runs {@code call}, whose bound of a millisecond may run out on a busy machine: the bound the
     * interceptor saw (it runs first, whatever the call's fate) is what is checked, not the answer.
     */
    private static void boundOnly(Runnable call) {
        try {
            call.run();
        } catch (dev.mooring.api.client.KubernetesException timedOut) {
            assertTrue(String.valueOf(timedOut.getMessage()).contains("timeout"), timedOut.getMessage());
        }
    }

    @Test
    void aMissingObjectIsEmptyAndOtherRefusalsAreThrown() {
        KubeHttp http = http();
        assertEquals("ConfigMap", http.getOptional(PATH, Map.of()).orElseThrow().get("kind").getAsString());
        code = 404;
        answer = "{\"kind\":\"Status\",\"reason\":\"NotFound\",\"message\":\"configmaps \\\"a\\\" not found\"}";
        assertTrue(http.getOptional(PATH, Map.of()).isEmpty());
        code = 403;
        answer = "{\"kind\":\"Status\",\"reason\":\"Forbidden\",\"message\":\"no\"}";
        KubernetesException forbidden = assertThrows(KubernetesException.class, () -> http.getOptional(PATH, Map.of()));
        assertEquals(403, forbidden.code());
        assertEquals("GET " + PATH + " failed with 403 Forbidden: no", forbidden.getMessage());
    }

    @Test
    void anAnswerThatIsNotAnObjectOrNoAnswerAtAllNamesTheRequest() {
        KubeHttp http = http();
        answer = "[1,2]";
        assertEquals("PUT " + PATH + ": the answer is not a JSON object",
                assertThrows(KubernetesException.class, () -> http.send("PUT", PATH, Map.of(), "{}", "application/json")).getMessage());
        noAnswer = true;
        KubernetesException refused = assertThrows(KubernetesException.class, () -> http.get(PATH, Map.of()));
        assertEquals(0, refused.code());
        assertTrue(refused.getMessage().startsWith("GET " + PATH + " failed: java.net.ConnectException: Connection refused"),
                refused.getMessage());
        assertThrows(KubernetesException.class, () -> http.getText(PATH + "/log", Map.of(), Duration.ofSeconds(1), 10));
    }

    @Test
    void aJsonPatchWhoseTestFailedIsAConflictOtherPatchesAreNot() {
        KubeHttp http = http();
        code = 422;
        answer = "{\"kind\":\"Status\",\"reason\":\"Invalid\",\"message\":\"the server rejected our request\"}";
        assertTrue(assertThrows(KubernetesException.class,
                () -> http.send("PATCH", PATH, Map.of(), "[]", "application/json-patch+json")).isConflict());
        assertEquals(false, assertThrows(KubernetesException.class,
                () -> http.send("PATCH", PATH, Map.of(), "{}", "application/merge-patch+json")).isConflict());
    }

    @Test
    void textIsReadUpToItsLimit() {
        KubeHttp http = http();
        answer = "line one\nline two\n";
        assertEquals("line one\nline two\n", http.getText(PATH + "/log", Map.of("tailLines", "2"), Duration.ofSeconds(1), 100));
        assertEquals("tailLines=2", requests.get(0).url().query());
        assertEquals("line", http.getText(PATH + "/log", Map.of(), Duration.ofSeconds(1), 4));
        answer = "x".repeat(20_000); // more than one read of the body
        assertEquals("x".repeat(12_000), http.getText(PATH + "/log", Map.of(), Duration.ofSeconds(1), 12_000));
        answer = "";
        assertEquals("", http.getText(PATH + "/log", Map.of(), Duration.ofSeconds(1), 10));
        code = 400;
        answer = "{\"kind\":\"Status\",\"reason\":\"BadRequest\",\"message\":\"container not started\"}";
        assertEquals("GET " + PATH + "/log failed with 400 BadRequest: container not started", assertThrows(KubernetesException.class,
                () -> http.getText(PATH + "/log", Map.of(), Duration.ofSeconds(1), 10)).getMessage());
    }

    @Test
    void aWatchAsksForEventsAndARefusedOneNamesTheRequest() throws Exception {
        KubeHttp http = http();
        answer = "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\"}}\n";
        try (var watch = http.watch("/api/v1/configmaps", Map.of("resourceVersion", "7"),
                "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1")) {
            assertEquals("ADDED", watch.next().type);
        }
        Request request = requests.get(0);
        assertEquals("resourceVersion=7&watch=true", String.join("&", new java.util.TreeSet<>(
                List.of(request.url().query().split("&")))));
        assertEquals("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", request.header("Accept"));
        code = 403;
        answer = "{\"kind\":\"Status\",\"reason\":\"Forbidden\",\"message\":\"cannot watch\"}";
        KubernetesException refused = assertThrows(KubernetesException.class, () -> http.watch("/api/v1/configmaps", Map.of()));
        assertEquals("WATCH /api/v1/configmaps failed with 403 Forbidden: cannot watch", refused.getMessage());
    }
}
