package dev.mooring.engine.replica;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.Map;
import java.util.TreeMap;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The Leases of namespace ops as an API server keeps them, for an API client's interceptor: a
 * resourceVersion per write, 409 on a stale one or a second create, and scripted failures.
 */
final class ScriptedLeases {

    static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/ops/leases";

    final Map<String, JsonObject> leases = new TreeMap<>();
    int version;
    int uids;

    synchronized String holder(String name) {
        return leases.get(name).getAsJsonObject("spec").get("holderIdentity").getAsString();
    }

    /** While true, every request is answered 503 (an API server that is down). */
    volatile boolean unavailable;
    /** When not 0, every request is answered with this code. */
    volatile int failWith;
    /** While true, every write is answered 500 (lists still answer). */
    volatile boolean failWrites;
    /** The code a write (method, Lease name) is answered with instead of being stored; 0 stores it. */
    volatile java.util.function.ToIntBiFunction<String, String> refuse = (method, name) -> 0;

    synchronized Response answer(Request request) throws java.io.IOException {
        if (unavailable) {
            return respond(request, 503, "{\"kind\":\"Status\",\"code\":503,\"reason\":\"ServiceUnavailable\"}");
        }
        if (failWith != 0) {
            return respond(request, failWith, "{\"kind\":\"Status\",\"code\":" + failWith + ",\"reason\":\"Scripted\"}");
        }
        String path = request.url().encodedPath();
        String method = request.method();
        if (method.equals("GET") && path.equals(LEASES)) {
            JsonArray items = new JsonArray();
            leases.values().forEach(lease -> items.add(lease.deepCopy()));
            JsonObject list = new JsonObject();
            list.add("items", items);
            return respond(request, 200, list.toString());
        }
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (failWrites && !method.equals("GET")) {
            return respond(request, 500, "{\"kind\":\"Status\",\"code\":500,\"reason\":\"InternalError\"}");
        }
        if (method.equals("GET")) {
            return leases.containsKey(name) ? respond(request, 200, leases.get(name).toString()) : notFound(request);
        }
        if (method.equals("DELETE")) {
            return leases.remove(name) != null ? respond(request, 200, "{}") : notFound(request);
        }
        okio.Buffer buffer = new okio.Buffer();
        request.body().writeTo(buffer);
        JsonObject written = JsonParser.parseString(buffer.readUtf8()).getAsJsonObject();
        JsonObject metadata = written.getAsJsonObject("metadata");
        if (method.equals("POST")) {
            name = metadata.get("name").getAsString();
        }
        int refused = refuse.applyAsInt(method, name);
        if (refused != 0) {
            return respond(request, refused, "{\"kind\":\"Status\",\"code\":" + refused + ",\"reason\":\"Scripted\"}");
        }
        if (method.equals("POST")) {
            if (leases.containsKey(name)) {
                return respond(request, 409, "{\"kind\":\"Status\",\"code\":409,\"reason\":\"AlreadyExists\"}");
            }
            metadata.addProperty("uid", "u" + ++uids);
        } else {
            JsonObject stored = leases.get(name);
            if (stored == null) {
                return notFound(request);
            }
            if (!stored.getAsJsonObject("metadata").get("resourceVersion").equals(metadata.get("resourceVersion"))) {
                return respond(request, 409, "{\"kind\":\"Status\",\"code\":409,\"reason\":\"Conflict\"}");
            }
        }
        metadata.addProperty("resourceVersion", Integer.toString(++version));
        leases.put(name, written);
        return respond(request, method.equals("POST") ? 201 : 200, written.toString());
    }

    private static Response notFound(Request request) {
        return respond(request, 404, "{\"kind\":\"Status\",\"code\":404,\"reason\":\"NotFound\"}");
    }

    private static Response respond(Request request, int code, String body) {
        return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(code).message("scripted")
                .body(ResponseBody.create(body, MediaType.get("application/json"))).build();
    }
}
