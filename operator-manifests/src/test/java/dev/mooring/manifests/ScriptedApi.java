package dev.mooring.manifests;

import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiClient;
import java.util.ArrayDeque;
import java.util.Deque;
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
 * An API server that answers from a script, for unit tests of logic over answers: each
 * {@code "METHOD /path"} (the query left out) gets the answers given in turn, the last one again
 * once they are used up; anything unscripted is a 404 Status. Every request but discovery's is
 * noted as {@code "METHOD /path?query"}. {@link #discovery} scripts legacy discovery of kinds.
 */
final class ScriptedApi {

    record Answer(int code, String body) {
    }

    final List<String> requests = new CopyOnWriteArrayList<>();
    private final Map<String, Deque<Answer>> answers = new ConcurrentHashMap<>();
    private final java.util.Set<String> discoveryPaths = new java.util.concurrent.CopyOnWriteArraySet<>(List.of("/api", "/apis"));

    ScriptedApi answer(String request, int code, String body) {
        answers.computeIfAbsent(request, r -> new ArrayDeque<>()).add(new Answer(code, body));
        return this;
    }

    /**
     * Legacy discovery of {@code resources}, each {@code "group/version kind plural namespaced"}
     * ({@code "v1 ConfigMap configmaps true"} for the core group).
     */
    ScriptedApi discovery(String... resources) {
        Map<String, StringBuilder> byGroupVersion = new java.util.TreeMap<>();
        for (String resource : resources) {
            String[] parts = resource.split(" ");
            StringBuilder list = byGroupVersion.computeIfAbsent(parts[0], gv -> new StringBuilder());
            list.append(list.isEmpty() ? "" : ",").append("{\"name\":\"").append(parts[2]).append("\",\"kind\":\"").append(parts[1])
                    .append("\",\"namespaced\":").append(parts[3]).append('}');
        }
        StringBuilder groups = new StringBuilder();
        byGroupVersion.forEach((groupVersion, list) -> {
            boolean core = !groupVersion.contains("/");
            String path = (core ? "/api/" : "/apis/") + groupVersion;
            discoveryPaths.add(path);
            answer("GET " + path, 200, "{\"kind\":\"APIResourceList\",\"resources\":[" + list + "]}");
            if (!core) {
                String[] gv = groupVersion.split("/");
                groups.append(groups.isEmpty() ? "" : ",").append("{\"name\":\"").append(gv[0]).append("\",\"versions\":[{\"version\":\"")
                        .append(gv[1]).append("\"}]}");
            }
        });
        answer("GET /api", 200, "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"]}");
        answer("GET /apis", 200, "{\"kind\":\"APIGroupList\",\"groups\":[" + groups + "]}");
        return this;
    }

    private Answer next(String request) {
        Deque<Answer> queue = answers.get(request);
        if (queue == null) {
            return new Answer(404, "{\"kind\":\"Status\",\"code\":404,\"reason\":\"NotFound\",\"message\":\"not scripted\"}");
        }
        synchronized (queue) {
            return queue.size() > 1 ? queue.poll() : queue.peek();
        }
    }

    KubeHttp http() {
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> {
            okhttp3.HttpUrl url = chain.request().url();
            String request = chain.request().method() + " " + url.encodedPath();
            if (!discoveryPaths.contains(url.encodedPath())) {
                requests.add(request + (url.encodedQuery() == null ? "" : "?" + url.query()));
            }
            Answer answer = next(request);
            MediaType type = answer.body().startsWith("{") ? MediaType.get("application/json") : MediaType.get("text/plain");
            return new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1).code(answer.code()).message("scripted")
                    .body(ResponseBody.create(answer.body(), type)).build();
        }).build());
        return new KubeHttp(client);
    }
}
