package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

/** Every request is reported once with method, host, code (or no answer) and latency; nothing else. */
class RequestTimingTest {

    @Test
    void answersAndRequestsWithoutAnAnswerAreReported() {
        List<String> heard = new ArrayList<>();
        int[] codes = {200, 404, -1};
        int[] next = {0};
        OkHttpClient transport = new OkHttpClient.Builder()
                .addInterceptor(new RequestTiming((method, host, code, latency) -> {
                    assertTrue(!latency.isNegative());
                    heard.add(method + " " + host + " " + code);
                }))
                .addInterceptor(chain -> {
                    int code = codes[next[0]++];
                    if (code < 0) {
                        throw new IOException("connection refused");
                    }
                    return new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1).code(code).message("-")
                            .body(ResponseBody.create(code == 200 ? "{}" : "{\"kind\":\"Status\",\"code\":404}",
                                    MediaType.get("application/json"))).build();
                }).build();
        KubeHttp http = new KubeHttp(new ApiClient(transport).setBasePath("https://apiserver.invalid:6443"));

        http.get("/api/v1/namespaces/ops/configmaps/a", Map.of());
        assertTrue(http.getOptional("/api/v1/namespaces/ops/configmaps/b", Map.of()).isEmpty());
        assertThrows(RuntimeException.class, () -> http.get("/api/v1/namespaces/ops/configmaps/c", Map.of()));

        assertEquals(List.of("GET apiserver.invalid:6443 200", "GET apiserver.invalid:6443 404",
                "GET apiserver.invalid:6443 " + RequestTiming.NO_ANSWER), heard);
    }

    @Test
    void aRequestSentDuringATracedPassIsItsChildSpanEndedWithItsCode() {
        dev.mooring.engine.trace.RecordingTracing tracing = new dev.mooring.engine.trace.RecordingTracing();
        OkHttpClient transport = new OkHttpClient.Builder()
                .addInterceptor(new RequestTiming((method, host, code, latency) -> { }, tracing))
                .addInterceptor(chain -> new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1).code(200)
                        .message("-").body(ResponseBody.create("{}", MediaType.get("application/json"))).build()).build();
        KubeHttp http = new KubeHttp(new ApiClient(transport).setBasePath("https://apiserver.invalid:6443"));

        http.get("/api/v1/namespaces/ops/configmaps", Map.of());
        assertEquals(List.of(), tracing.spans, "no span for a request outside a pass (an informer's)");
        try (dev.mooring.engine.trace.Tracing.Span pass = tracing.pass("mirror", "ConfigMap", "ops", "a", "r1")) {
            http.send("PATCH", "/api/v1/namespaces/ops/configmaps/a", Map.of(), "[]", "application/json-patch+json");
        }
        dev.mooring.engine.trace.RecordingTracing.Recorded request = tracing.of("request").get(0);
        assertEquals(Map.of("method", "PATCH", "host", "apiserver.invalid:6443", "path", "/api/v1/namespaces/ops/configmaps/a"),
                request.attributes);
        assertEquals("200", request.outcome);
        assertTrue(request.ended);
        assertEquals(tracing.of("pass").get(0), request.parent);
    }
}
