package dev.mooring.engine.admission;

import com.google.gson.JsonParser;
import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.UserInfo;
import dev.mooring.api.patch.Patches;
import dev.mooring.engine.RequestScope;
import dev.mooring.engine.kube.Kinds;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Answers HTTP requests to admission routes: checks the request, decodes the AdmissionReview,
 * calls the admission method within its timeout and encodes the answer. Every outcome is an
 * {@link Answer}; nothing a client sends makes it throw.
 *
 * <table>
 * <caption>HTTP outcomes, checked in this order</caption>
 * <tr><td>404</td><td>no route at the path</td></tr>
 * <tr><td>403</td><td>the request did not arrive over HTTPS; or client certificates are required and its chain does
 * not lead to a CA of the client CA file ({@link ClientTrust})</td></tr>
 * <tr><td>405</td><td>not a POST</td></tr>
 * <tr><td>415</td><td>the content type is not {@code application/json}</td></tr>
 * <tr><td>413</td><td>the body is larger than 4 MiB</td></tr>
 * <tr><td>429</td><td>a body of at least {@link DecodeBudget#LARGE_BODY} bytes while as many large bodies as the
 * {@link DecodeBudget} allows are being decoded; or a body not decoded within its deadline (one second by default)</td></tr>
 * <tr><td>400</td><td>not JSON, beyond a limit of {@link #LIMITS}, not an {@code admission.k8s.io/v1}
 * AdmissionReview, no request or uid, a member of the wrong type, a name, namespace, group, version, kind or
 * resource that breaks Kubernetes' rules, or a request the route does not admit (kind, resource,
 * subresource, operation, objects)</td></tr>
 * <tr><td>503</td><td>every admission thread is busy and the queue is full</td></tr>
 * <tr><td>504</td><td>the method did not return within the route's timeout, counted from the request's arrival</td></tr>
 * <tr><td>200</td><td>an answer: allowed (with a patch from a mutator), or denied by {@link AdmissionDenied}
 * (its code), by an object the model cannot decode (422) or by an unexpected exception (500, generic message)</td></tr>
 * </table>
 */
public final class AdmissionDispatcher {

    /** The largest AdmissionReview accepted: 4 MiB. */
    public static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

    /**
     * The limits of an AdmissionReview's JSON, each answered 400 naming it: nesting depth 100,
     * 100,000 members in one object or array, 1,000,000 values, strings of 1.5 MiB (the API
     * server's default limit of a whole object), numbers of 100 characters. A review the API
     * server sends stays far below each.
     */
    public static final BoundedJson.Limits LIMITS = new BoundedJson.Limits(100, 100_000, 1_000_000, 1_572_864, 100);

    private static final Logger LOG = Logger.getLogger(AdmissionDispatcher.class.getName());
    /**
     * One provider for every JSON-P value this class makes: each {@code Json.*} call would look
     * the provider up again (see {@link BoundedJson}). Providers are stateless and thread-safe.
     */
    private static final JsonProvider JSON_P = JsonProvider.provider();
    private static final String API_VERSION = "admission.k8s.io/v1";
    private static final int MAX_DETAIL = 300;

    /**
     * An HTTP answer: status and JSON body.
     *
     * @param denied true for an AdmissionReview that does not allow the request
     */
    public record Answer(int status, String body, boolean denied) {

        /** An answer that denies nothing. */
        public Answer(int status, String body) {
            this(status, body, false);
        }
    }

    /** Told about every answer of a known route (not about unknown paths, which would be unbounded labels). */
    public interface Observer {
        /** No observation. */
        Observer NONE = new Observer() {
            @Override
            public void started(AdmissionRoute route) {
            }

            @Override
            public void answered(AdmissionRoute route, int status, boolean denied, java.time.Duration duration) {
            }
        };

        /** A request for the route arrived. */
        void started(AdmissionRoute route);

        /** It was answered with this HTTP status; {@code denied} for a 200 that does not allow. */
        void answered(AdmissionRoute route, int status, boolean denied, java.time.Duration duration);
    }

    /** A request that passed every check: what the method gets, and what the patch needs. */
    private record Decoded(TypedAdmissionRequest<?> request, JsonObject sentObject, JsonValue decodedObject) {
    }

    /** A failed check, carrying its answer. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient Answer answer;

        Refused(Answer answer) {
            super(null, null, false, false);
            this.answer = answer;
        }
    }

    private final Map<String, BoundRoute> routes = new LinkedHashMap<>();
    private final ExecutorService executor;
    private final AdmissionReads reads;
    private final RequestScope scope;
    private final BoundedJson json;
    private final DecodeBudget budget;
    private final ClientTrust clients;
    private final Observer observer;

    /**
     * @param routes the routes, with unique paths, each bound to its bean
     * @param executor runs each call, so that a call that overruns its timeout can be abandoned
     * @param reads the caches and the live client the requests read through
     * @param scope activates a CDI request context around each call
     * @param observer told about every answer (metrics)
     */
    public AdmissionDispatcher(List<BoundRoute> routes, ExecutorService executor, AdmissionReads reads, RequestScope scope,
            Observer observer) {
        this(routes, executor, reads, scope, observer, DecodeBudget.standard(), ClientTrust.ANY);
    }

    /**
     * @param budget bounds the decoding of request bodies
     * @param clients which client certificates may call (the other parameters as above)
     */
    public AdmissionDispatcher(List<BoundRoute> routes, ExecutorService executor, AdmissionReads reads, RequestScope scope,
            Observer observer, DecodeBudget budget, ClientTrust clients) {
        AdmissionRoutes.requireUniquePaths(routes.stream().map(BoundRoute::route).toList());
        this.budget = Objects.requireNonNull(budget);
        this.clients = Objects.requireNonNull(clients);
        this.json = new BoundedJson(LIMITS, JSON_P, budget.clock());
        routes.forEach(bound -> this.routes.put(bound.route().path(), bound));
        this.executor = Objects.requireNonNull(executor);
        this.reads = Objects.requireNonNull(reads);
        this.scope = Objects.requireNonNull(scope);
        this.observer = Objects.requireNonNull(observer);
    }

    /** The routes, by path. */
    public Map<String, AdmissionRoute> routes() {
        Map<String, AdmissionRoute> byPath = new LinkedHashMap<>();
        routes.forEach((path, bound) -> byPath.put(path, bound.route()));
        return byPath;
    }

    /** {@link #handle(String, String, String, InputStream, boolean, X509Certificate[])} without a client certificate. */
    public Answer handle(String method, String path, String contentType, InputStream body, boolean secure) {
        return handle(method, path, contentType, body, secure, null);
    }

    /**
     * Answer one HTTP request.
     *
     * @param method the HTTP method
     * @param path the request path, such as {@code /validate/apps/v1/deployments/require-team}
     * @param contentType the Content-Type header, or null
     * @param body the request body; read up to just over 4 MiB
     * @param secure true when the request came over HTTPS
     * @param clientChain the client certificate chain of the TLS connection, leaf first, or null
     */
    public Answer handle(String method, String path, String contentType, InputStream body, boolean secure,
            X509Certificate[] clientChain) {
        BoundRoute bound = routes.get(path);
        if (bound == null) {
            return message(404, "Unknown webhook path");
        }
        AdmissionRoute route = bound.route();
        long start = System.nanoTime();
        observer.started(route);
        Answer answer = answer(bound, method, contentType, body, secure, clientChain, start);
        observer.answered(route, answer.status(), answer.denied(), java.time.Duration.ofNanos(System.nanoTime() - start));
        return answer;
    }

    private Answer answer(BoundRoute bound, String method, String contentType, InputStream body, boolean secure,
            X509Certificate[] clientChain, long start) {
        AdmissionRoute route = bound.route();
        if (!secure) {
            return message(403, "Admission webhooks are served over HTTPS only");
        }
        String refusal = clients.refusal(clientChain);
        if (refusal != null) {
            LOG.fine(() -> "A request to " + route.path() + " refused: " + refusal);
            return message(403, "Client certificate refused: " + refusal);
        }
        if (!"POST".equals(method)) {
            return message(405, "Webhook requests require POST");
        }
        if (contentType == null || !contentType.split(";", 2)[0].trim().equalsIgnoreCase("application/json")) {
            return message(415, "Expected application/json");
        }
        byte[] bytes;
        try {
            bytes = readAtMost(body, MAX_BODY_BYTES);
        } catch (IOException e) {
            return message(400, "The AdmissionReview could not be read: " + e.getMessage());
        }
        if (bytes == null) {
            return message(413, "AdmissionReview exceeds " + MAX_BODY_BYTES + " bytes");
        }
        Optional<DecodeBudget.Ticket> ticket = budget.enter(bytes.length);
        if (ticket.isEmpty()) {
            LOG.fine(() -> "A review of " + bytes.length + " bytes refused: " + budget.slots() + " large reviews are being decoded");
            return message(429, "Too many large AdmissionReviews are being decoded at once (" + budget.slots()
                    + "); try again");
        }
        Decoded decoded;
        try (DecodeBudget.Ticket decoding = ticket.get()) {
            decoded = decode(route, bytes, decoding);
        } catch (Refused refused) {
            return refused.answer;
        }
        return review(bound, decoded, start);
    }

    private Answer review(BoundRoute bound, Decoded decoded, long start) {
        AdmissionRoute route = bound.route();
        TypedAdmissionRequest<?> request = decoded.request();
        Future<Object> call;
        try {
            call = executor.submit(() -> {
                try (RequestScope.Activation active = scope.activate()) {
                    return bound.call(request);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.warning(() -> "Admission is overloaded: every admission thread is busy and the queue is full; " + request
                    + " refused (mooring.admission.threads, mooring.admission.queue)");
            return message(503, "Admission webhook is overloaded: every admission thread is busy", request.uid());
        }
        Object result;
        try {
            // the route's timeout is the API server's: it counts from the request's arrival, decoding included
            long left = TimeUnit.SECONDS.toNanos(route.timeoutSeconds()) - (System.nanoTime() - start);
            result = call.get(Math.max(0, left), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            LOG.warning(() -> "Admission method " + route.describe() + " did not answer " + request + " within "
                    + route.timeoutSeconds() + " s");
            return message(504, "Admission webhook timed out", request.uid());
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            return message(503, "The server is stopping", request.uid());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AdmissionDenied denied) {
                return denial(request, denied.code(), denied.reason(), denied.getMessage());
            }
            return failure(route, request, e.getCause());
        }
        if (!route.mutating() || result == null) {
            return allowed(request, null);
        }
        if (!route.requestModel().isInstance(result)) {
            return failure(route, request, new IllegalStateException("returned " + result.getClass().getName() + ", not "
                    + route.requestModel().getName()));
        }
        JsonArray patch;
        try {
            patch = MutationPatches.between(decoded.sentObject(), decoded.decodedObject(), Patches.toJson(result));
        } catch (RuntimeException e) {
            return failure(route, request, e);
        }
        return allowed(request, patch.isEmpty() ? null : patch);
    }

    private Decoded decode(AdmissionRoute route, byte[] bytes, DecodeBudget.Ticket ticket) throws Refused {
        ReviewDocument review;
        try {
            review = ReviewDocument.of(json.parse(bytes, ticket.deadline()));
        } catch (BoundedJson.Rejected e) {
            if (e.overDeadline()) {
                throw overDeadline(bytes.length);
            }
            throw invalid(null, e.getMessage());
        } catch (IllegalArgumentException e) {
            throw invalid(null, e.getMessage());
        }
        if (!API_VERSION.equals(review.apiVersion()) || !"AdmissionReview".equals(review.kind())) {
            throw invalid(null, "expected apiVersion " + API_VERSION + " and kind AdmissionReview");
        }
        ReviewDocument.Request request = review.request();
        if (request == null) {
            throw invalid(null, "the review has no request");
        }
        if (request.uid() == null || request.uid().isBlank()) {
            throw invalid(null, "request.uid is missing");
        }
        String uid = request.uid();
        Operation operation = operation(uid, request.operation());
        if (!route.operations().contains(operation)) {
            throw invalid(uid, "this webhook admits " + route.operations() + ", not " + operation);
        }
        checkResource(route, uid, request);
        checkObjects(uid, operation, request);
        KubernetesObject object = typed(route, uid, request.object(), "object");
        KubernetesObject oldObject = typed(route, uid, request.oldObject(), "oldObject");
        if (ticket.expired()) {
            throw overDeadline(bytes.length);
        }
        JsonValue decodedObject = object == null ? null : Patches.toJson(object);
        ReviewDocument.User user = request.userInfo();
        UserInfo userInfo = user == null ? new UserInfo("", "", List.of(), Map.of())
                : new UserInfo(user.username(), user.uid(), user.groups(), user.extra());
        TypedAdmissionRequest<?> typed = new TypedAdmissionRequest<>(uid, operation, object, oldObject, request.name(),
                request.namespace(), request.subResource(), request.dryRun(), userInfo, route.beanClass(), reads);
        return new Decoded(typed, request.object(), decodedObject);
    }

    private static Operation operation(String uid, String operation) throws Refused {
        if (operation != null) {
            for (Operation known : Operation.values()) {
                if (known.name().equals(operation)) {
                    return known;
                }
            }
        }
        throw invalid(uid, "request.operation " + quote(operation) + " is not CREATE, UPDATE, DELETE or CONNECT");
    }

    private static void checkResource(AdmissionRoute route, String uid, ReviewDocument.Request request) throws Refused {
        ResourceType<?> expected = route.requestKind();
        ReviewDocument.GroupVersionKind kind = request.kind();
        if (kind == null) {
            throw invalid(uid, "request.kind is missing");
        }
        if (expected != null && !(expected.group().equals(kind.group()) && expected.version().equals(kind.version())
                && expected.kind().equals(kind.kind()))) {
            throw invalid(uid, "request.kind " + gvk(kind.group(), kind.version(), kind.kind()) + " is not "
                    + gvk(expected.group(), expected.version(), expected.kind()) + ", the kind this webhook admits");
        }
        ReviewDocument.GroupVersionResource resource = request.resource();
        ResourceType<?> target = route.target();
        if (resource == null || !target.group().equals(resource.group()) || !target.version().equals(resource.version())
                || !route.plural().equals(resource.resource())) {
            throw invalid(uid, "request.resource " + (resource == null ? "(missing)" : gvk(resource.group(), resource.version(),
                    resource.resource())) + " is not " + gvk(target.group(), target.version(), route.plural()));
        }
        String subresource = request.subResource();
        if (!route.subresource().equals(subresource)) {
            throw invalid(uid, "request.subResource " + quote(subresource) + " is not " + quote(route.subresource()));
        }
    }

    private static void checkObjects(String uid, Operation operation, ReviewDocument.Request request) throws Refused {
        boolean hasObject = request.object() != null;
        boolean hasOld = request.oldObject() != null;
        boolean fits = switch (operation) {
            case CREATE, CONNECT -> hasObject && !hasOld;
            case UPDATE -> hasObject && hasOld;
            case DELETE -> !hasObject && hasOld;
        };
        if (!fits) {
            throw invalid(uid, "a " + operation + " request " + switch (operation) {
                case CREATE, CONNECT -> "has an object and no oldObject";
                case UPDATE -> "has an object and an oldObject";
                case DELETE -> "has an oldObject and no object";
            });
        }
    }

    private static KubernetesObject typed(AdmissionRoute route, String uid, JsonObject json, String field) throws Refused {
        if (json == null) {
            return null;
        }
        ResourceType<?> expected = route.requestKind();
        if (expected != null) {
            String apiVersion = json.get("apiVersion") instanceof jakarta.json.JsonString s ? s.getString() : null;
            String kind = json.get("kind") instanceof jakarta.json.JsonString s ? s.getString() : null;
            if (!expected.apiVersion().equals(apiVersion) || !expected.kind().equals(kind)) {
                throw invalid(uid, "request." + field + " is " + quote(apiVersion) + " " + quote(kind) + ", not "
                        + expected.apiVersion() + " " + expected.kind());
            }
        }
        try {
            String text = json.toString();
            if (DynamicKubernetesObject.class.equals(route.requestModel())) {
                return new DynamicKubernetesObject(JsonParser.parseString(text).getAsJsonObject());
            }
            return JSON.getGson().fromJson(text, route.requestModel());
        } catch (RuntimeException | StackOverflowError e) {
            String problem = e instanceof RuntimeException runtime ? Models.decodeFailure(runtime) : "nested too deeply";
            throw new Refused(new Answer(200, response(uid, false, 422, "Invalid", "Invalid "
                    + route.requestModel().getSimpleName() + " in request." + field + ": " + problem, null, List.of()), true));
        }
    }

    private Answer failure(AdmissionRoute route, AdmissionRequest<?> request, Throwable cause) {
        LOG.log(Level.WARNING, "Admission method " + route.describe() + " failed on " + request, cause);
        return denial(request, 500, "InternalError", "Admission webhook " + route.path() + " failed; the operator log has the cause");
    }

    private static Answer allowed(TypedAdmissionRequest<?> request, JsonArray patch) {
        return new Answer(200, response(request.uid(), true, 0, null, null, patch, request.warnings()));
    }

    private static Answer denial(AdmissionRequest<?> request, int code, String reason, String message) {
        List<String> warnings = request instanceof TypedAdmissionRequest<?> typed ? typed.warnings() : List.of();
        return new Answer(200, response(request.uid(), false, code, reason, message, null, warnings), true);
    }

    private static String response(String uid, boolean allowed, int code, String reason, String message, JsonArray patch,
            List<String> warnings) {
        JsonObjectBuilder response = JSON_P.createObjectBuilder().add("uid", uid).add("allowed", allowed);
        if (!allowed) {
            JsonObjectBuilder status = JSON_P.createObjectBuilder().add("code", code).add("message", message);
            if (reason != null && !reason.isEmpty()) {
                status.add("reason", reason);
            }
            response.add("status", status);
        }
        if (patch != null) {
            response.add("patchType", "JSONPatch")
                    .add("patch", Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
        }
        if (!warnings.isEmpty()) {
            JsonArrayBuilder list = JSON_P.createArrayBuilder();
            warnings.forEach(list::add);
            response.add("warnings", list);
        }
        return JSON_P.createObjectBuilder().add("apiVersion", API_VERSION).add("kind", "AdmissionReview")
                .add("response", response).build().toString();
    }

    private Refused overDeadline(int bytes) {
        LOG.fine(() -> "A review of " + bytes + " bytes was not decoded within " + budget.perDecode().toMillis() + " ms");
        return new Refused(message(429, "The AdmissionReview was not decoded within " + budget.perDecode().toMillis()
                + " ms; try again"));
    }

    private static Refused invalid(String uid, String why) {
        return new Refused(message(400, "Invalid or mismatched " + API_VERSION + " AdmissionReview: " + why, uid));
    }

    private static Answer message(int status, String message) {
        return message(status, message, null);
    }

    /** An error answer: the message, and the request's uid when it was readable. */
    private static Answer message(int status, String message, String uid) {
        JsonObjectBuilder body = JSON_P.createObjectBuilder().add("message", message);
        if (uid != null) {
            body.add("uid", uid);
        }
        return new Answer(status, body.build().toString());
    }

    /** The stream's bytes, or null when there are more than {@code limit}. */
    static byte[] readAtMost(InputStream in, int limit) throws IOException {
        if (in == null) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[16384];
        int total = 0;
        int read;
        while ((read = in.read(buffer)) != -1) {
            total += read;
            if (total > limit) {
                return null;
            }
            out.write(buffer, 0, read);
        }
        return out.toByteArray();
    }

    private static String gvk(String group, String version, String name) {
        return (group == null || group.isEmpty() ? "" : group + "/") + version + " " + name;
    }

    private static String quote(String value) {
        return value == null ? "(missing)" : "'" + shorten(value) + "'";
    }

    private static String shorten(String text) {
        String oneLine = text.replaceAll("\\s+", " ");
        return oneLine.length() <= MAX_DETAIL ? oneLine : oneLine.substring(0, MAX_DETAIL) + "...";
    }
}
