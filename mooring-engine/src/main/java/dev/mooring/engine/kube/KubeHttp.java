package dev.mooring.engine.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.reflect.TypeToken;
import dev.mooring.api.client.KubernetesException;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.util.Watch;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Raw JSON requests to the API server through a configured client-java {@link ApiClient}
 * (authentication, TLS, timeouts). Every failure becomes a {@link KubernetesException} naming
 * the request, the HTTP status and the server's explanation.
 */
public final class KubeHttp {

    private static final String[] AUTH = {"BearerToken"};
    /** {@code Mooring/<version>}: who sent a request, in the API server's audit log. */
    public static final String USER_AGENT = "Mooring/" + version();
    private static final Type WATCH_EVENT = TypeToken.getParameterized(Watch.Response.class, JsonObject.class).getType();

    private final ApiClient client;
    private final java.util.function.BooleanSupplier writesAllowed;
    private final String refusal;
    /** Told of the answer to every successful write, or null. */
    private final java.util.function.Consumer<JsonObject> writeAnswers;

    public KubeHttp(ApiClient client) {
        this(client, () -> true, null, null);
    }

    private KubeHttp(ApiClient client, java.util.function.BooleanSupplier writesAllowed, String refusal,
            java.util.function.Consumer<JsonObject> writeAnswers) {
        this.client = client;
        this.writesAllowed = writesAllowed;
        this.refusal = refusal;
        this.writeAnswers = writeAnswers;
    }

    /** Thrown instead of sending a write that the write guard refuses; nothing was sent. */
    public static final class WriteRefused extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        WriteRefused(String message) {
            super(message);
        }
    }

    /**
     * The same connection, with every request other than a GET checked against {@code allowed}
     * just before it is sent: when it is false the request is not sent and {@link WriteRefused}
     * is thrown with {@code refusal} (for a replica whose leadership expired).
     */
    public KubeHttp guardWrites(java.util.function.BooleanSupplier allowed, String refusal) {
        return new KubeHttp(client, allowed, refusal, writeAnswers);
    }

    /**
     * The same connection, each successful answer to a request other than a GET (or a dry run) also handed to
     * {@code answers} (on the sending thread, before the caller gets it): what read-your-writes
     * learns the written versions from. Its guard, if any, is kept.
     */
    public KubeHttp observeWrites(java.util.function.Consumer<JsonObject> answers) {
        return new KubeHttp(client, writesAllowed, refusal, answers);
    }

    public ApiClient apiClient() {
        return client;
    }

    /** GET a JSON document; empty when the server answers 404. */
    public java.util.Optional<JsonObject> getOptional(String path, Map<String, String> query) {
        return getOptional(path, query, null);
    }

    /** Like {@link #getOptional(String, Map)}, the call bounded by {@code timeout} (null: none). */
    public java.util.Optional<JsonObject> getOptional(String path, Map<String, String> query, java.time.Duration timeout) {
        try {
            return java.util.Optional.of(send("GET", path, query, null, null, timeout));
        } catch (KubernetesException e) {
            if (e.isNotFound()) {
                return java.util.Optional.empty();
            }
            throw e;
        }
    }

    /** GET a JSON document. */
    public JsonObject get(String path, Map<String, String> query) {
        return send("GET", path, query, null, null);
    }

    /**
     * GET a list, decoding it as it arrives: each member of {@code items} is parsed on its own and
     * handed to {@code eachItem} before the next one is read, so that no more than one item's tree
     * and the reader's buffer are held at once, however long the list (the whole answer of a list
     * served from the watch cache can be hundreds of megabytes). Members other than {@code items}
     * and {@code metadata} are skipped.
     *
     * @return the list's {@code metadata} ({@code resourceVersion}, {@code continue}), empty when absent
     * @throws KubernetesException naming the request when the server refuses it, the answer is not
     *     a JSON object or an item is not one, or the connection breaks; items handed over before
     *     that stay handed over; what {@code eachItem} throws is thrown as it is
     */
    public JsonObject streamList(String path, Map<String, String> query, java.util.function.Consumer<JsonObject> eachItem) {
        return streamList(path, query, "application/json", eachItem);
    }

    /** {@link #streamList(String, Map, java.util.function.Consumer)} with an {@code Accept} header ({@code as=PartialObjectMetadataList}). */
    public JsonObject streamList(String path, Map<String, String> query, String accept, java.util.function.Consumer<JsonObject> eachItem) {
        Call call = buildCall("GET", path, query, null, null, accept);
        try (Response response = call.execute()) {
            ResponseBody body = response.body();
            if (!response.isSuccessful()) {
                throw failure("GET", path, response.code(), body == null ? "" : body.string(), null, false);
            }
            if (body == null) {
                throw new KubernetesException(response.code(), "", "GET " + path + ": the answer is empty", null);
            }
            try (com.google.gson.stream.JsonReader reader = new com.google.gson.stream.JsonReader(body.charStream())) {
                return readList(reader, eachItem);
            } catch (IllegalStateException | com.google.gson.JsonParseException | NumberFormatException e) {
                throw new KubernetesException(response.code(), "", "GET " + path + ": the answer is not a list: " + e.getMessage(), e);
            }
        } catch (IOException e) {
            throw new KubernetesException(0, "", "GET " + path + " failed: " + e, e);
        } catch (ItemRejected e) {
            throw e.rejection; // the consumer's own failure, not one of the answer
        }
    }

    /** Carries a failure of the item consumer past the catch of malformed answers. */
    private static final class ItemRejected extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final RuntimeException rejection;

        ItemRejected(RuntimeException rejection) {
            super(null, null, false, false);
            this.rejection = rejection;
        }
    }

    private static JsonObject readList(com.google.gson.stream.JsonReader reader, java.util.function.Consumer<JsonObject> eachItem)
            throws IOException {
        JsonObject metadata = new JsonObject();
        reader.beginObject();
        while (reader.hasNext()) {
            String member = reader.nextName();
            if (member.equals("items") && reader.peek() == com.google.gson.stream.JsonToken.BEGIN_ARRAY) {
                reader.beginArray();
                while (reader.hasNext()) {
                    JsonElement item = JsonParser.parseReader(reader);
                    if (!item.isJsonObject()) {
                        throw new IllegalStateException("an item is " + item.getClass().getSimpleName() + ", not an object");
                    }
                    try {
                        eachItem.accept(item.getAsJsonObject());
                    } catch (RuntimeException e) {
                        throw new ItemRejected(e);
                    }
                }
                reader.endArray();
            } else if (member.equals("metadata") && reader.peek() == com.google.gson.stream.JsonToken.BEGIN_OBJECT) {
                metadata = JsonParser.parseReader(reader).getAsJsonObject();
            } else {
                reader.skipValue();
            }
        }
        reader.endObject();
        return metadata;
    }

    /** GET a JSON document, asking for it with {@code accept} (aggregated discovery). */
    public JsonObject get(String path, Map<String, String> query, String accept) {
        return execute("GET", path, buildCall("GET", path, query, null, null, accept), null, false);
    }

    /** Send a request with a JSON body of the given content type, returning the JSON answer. */
    public JsonObject send(String method, String path, Map<String, String> query, String body, String contentType) {
        return send(method, path, query, body, contentType, null);
    }

    /** Like {@link #send(String, String, Map, String, String)}, the whole call bounded by {@code timeout} (null: none). */
    public JsonObject send(String method, String path, Map<String, String> query, String body, String contentType,
            java.time.Duration timeout) {
        if (!"GET".equals(method) && !writesAllowed.getAsBoolean()) {
            throw new WriteRefused(method + " " + path + " not sent: " + refusal);
        }
        JsonObject answer = execute(method, path, buildCall(method, path, query, body, contentType, "application/json"), timeout,
                "application/json-patch+json".equals(contentType));
        if (writeAnswers != null && !"GET".equals(method) && !query.containsKey("dryRun")) {
            writeAnswers.accept(answer);
        }
        return answer;
    }

    private JsonObject execute(String method, String path, Call call, java.time.Duration timeout, boolean jsonPatch) {
        if (timeout != null) {
            call.timeout().timeout(Math.max(1, timeout.toMillis()), java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        try (Response response = call.execute()) {
            ResponseBody responseBody = response.body();
            String text = responseBody == null ? "" : responseBody.string();
            if (!response.isSuccessful()) {
                throw failure(method, path, response.code(), text, null, jsonPatch);
            }
            JsonElement parsed = JsonParser.parseString(text);
            if (!parsed.isJsonObject()) {
                throw new KubernetesException(response.code(), "", method + " " + path + ": the answer is not a JSON object", null);
            }
            return parsed.getAsJsonObject();
        } catch (IOException e) {
            throw new KubernetesException(0, "", method + " " + path + " failed: " + e, e);
        }
    }

    /**
     * GET a text document (a pod's log), at most {@code limit} characters of it.
     *
     * @throws KubernetesException naming the request when the server refuses it
     */
    public String getText(String path, Map<String, String> query, java.time.Duration timeout, int limit) {
        Call call = buildCall("GET", path, query, null, null);
        call.timeout().timeout(Math.max(1, timeout.toMillis()), java.util.concurrent.TimeUnit.MILLISECONDS);
        try (Response response = call.execute()) {
            ResponseBody body = response.body();
            if (!response.isSuccessful()) {
                throw failure("GET", path, response.code(), body == null ? "" : body.string(), null, false);
            }
            if (body == null) {
                return "";
            }
            char[] buffer = new char[limit];
            int read = 0;
            try (java.io.Reader reader = body.charStream()) {
                for (int n; read < limit && (n = reader.read(buffer, read, limit - read)) > 0;) {
                    read += n;
                }
            }
            return new String(buffer, 0, read);
        } catch (IOException e) {
            throw new KubernetesException(0, "", "GET " + path + " failed: " + e, e);
        }
    }

    /** Open a watch; the caller closes it. */
    public Watch<JsonObject> watch(String path, Map<String, String> query) {
        return watch(path, query, "application/json");
    }

    /** {@link #watch(String, Map)} with an {@code Accept} header ({@code as=PartialObjectMetadata}). */
    public Watch<JsonObject> watch(String path, Map<String, String> query, String accept) {
        Map<String, String> watchQuery = new HashMap<>(query);
        watchQuery.put("watch", "true");
        Call call = buildCall("GET", path, watchQuery, null, null, accept);
        try {
            return Watch.createWatch(client, call, WATCH_EVENT);
        } catch (ApiException e) {
            throw failure("WATCH", path, e.getCode(), e.getResponseBody(), e, false);
        }
    }

    private Call buildCall(String method, String path, Map<String, String> query, String body, String contentType) {
        return buildCall(method, path, query, body, contentType, "application/json");
    }

    private Call buildCall(String method, String path, Map<String, String> query, String body, String contentType, String accept) {
        List<Pair> params = new ArrayList<>();
        query.forEach((key, value) -> params.add(new Pair(key, value)));
        Map<String, String> headers = new HashMap<>();
        headers.put("Accept", accept);
        headers.put("User-Agent", USER_AGENT);
        if (contentType != null) {
            headers.put("Content-Type", contentType);
        }
        try {
            return client.buildCall(null, path, method, params, new ArrayList<>(),
                    body == null ? null : body.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    headers, new HashMap<>(), new HashMap<>(), AUTH, null);
        } catch (ApiException e) {
            throw new KubernetesException(0, "", method + " " + path + ": the request could not be built: " + e.getMessage(), e);
        }
    }

    private static String version() {
        java.util.Properties properties = new java.util.Properties();
        try (java.io.InputStream in = KubeHttp.class.getResourceAsStream("mooring-engine.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            // the jar is readable or nothing works; the version is only informative
        }
        return properties.getProperty("version", "unknown");
    }

    /** A non-JSON error body as one short line of text. */
    private static String plainText(String body) {
        String text = body == null ? "" : body.replaceAll("\\p{Cntrl}+", " ").trim();
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }

    /**
     * Turns an error answer into an exception that says what failed, with the field causes the
     * server gave. A 422 without causes for a JSON Patch is a failed {@code test} operation: the
     * object changed since it was read, so it is marked as a conflict.
     */
    public static KubernetesException failure(String method, String path, int code, String body, Throwable cause,
            boolean jsonPatch) {
        String reason = "";
        String message = plainText(body);
        StringBuilder causes = new StringBuilder();
        try {
            JsonObject status = JsonParser.parseString(body).getAsJsonObject();
            if (!"Status".equals(status.has("kind") && status.get("kind").isJsonPrimitive() ? status.get("kind").getAsString() : "")) {
                // a JSON document but not a Status: it may be an object of any kind, so it is not quoted
                message = "(an answer of " + body.length() + " characters that is not a Status)";
                status = new JsonObject();
            }
            if (status.has("reason")) {
                reason = status.get("reason").getAsString();
            }
            if (status.has("message")) {
                message = status.get("message").getAsString();
            }
            JsonObject details = status.has("details") && status.get("details").isJsonObject()
                    ? status.getAsJsonObject("details") : null;
            if (details != null && details.has("causes")) {
                for (com.google.gson.JsonElement item : details.getAsJsonArray("causes")) {
                    JsonObject c = item.getAsJsonObject();
                    causes.append(causes.length() == 0 ? " [" : "; ")
                            .append(c.has("field") ? c.get("field").getAsString() + ": " : "")
                            .append(c.has("message") ? c.get("message").getAsString() : "");
                }
                if (causes.length() > 0) {
                    causes.append(']');
                }
            }
        } catch (RuntimeException notJson) {
            // not JSON (a proxy's text, for instance): kept, shortened, as the message
        }
        if (code == 0 && message.isEmpty() && cause != null) {
            // no answer at all (connection refused, timeout, TLS): the cause is the explanation
            Throwable root = cause;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            message = "no answer from the API server: " + root;
        }
        boolean failedTest = jsonPatch && code == 422 && causes.length() == 0;
        if (failedTest) {
            message += " (a JSON Patch test failed: the object changed since it was read)";
        }
        message += causes;
        if (message.length() > 800) {
            message = message.substring(0, 800) + "...";
        }
        return new KubernetesException(code, reason,
                method + " " + path + " failed with " + code + (reason.isEmpty() ? "" : " " + reason) + ": " + message,
                cause, failedTest);
    }
}
