package dev.mooring.manifests;

import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * An API server that answers from a script, for unit tests of pure logic over answers: each
 * {@code "METHOD /path"} (the query left out) gets the code and body given; anything unscripted
 * is a 404 Status. Every request is noted as {@code "METHOD /path?query"}.
 */
final class ScriptedApi {

    record Answer(int code, String body) {
    }

    final List<String> requests = new CopyOnWriteArrayList<>();
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();

    ScriptedApi answer(String request, int code, String body) {
        answers.put(request, new Answer(code, body));
        return this;
    }

    KubeHttp http() {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
            okhttp3.HttpUrl url = chain.request().url();
            String request = chain.request().method() + " " + url.encodedPath();
            requests.add(request + (url.encodedQuery() == null ? "" : "?" + url.query()));
            Answer answer = answers.getOrDefault(request, new Answer(404,
                    "{\"kind\":\"Status\",\"code\":404,\"reason\":\"NotFound\",\"message\":\"not scripted\"}"));
            MediaType type = answer.body().startsWith("{") ? MediaType.get("application/json") : MediaType.get("text/plain");
            return new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1).code(answer.code()).message("scripted")
                    .body(ResponseBody.create(answer.body(), type)).build();
        }).build());
        return new KubeHttp(client);
    }
}
