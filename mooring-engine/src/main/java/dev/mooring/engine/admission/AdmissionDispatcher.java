package dev.mooring.engine.admission;

import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.UserInfo;
import dev.mooring.api.patch.Patches;
import dev.mooring.engine.certificates.ClientTrust;
import dev.mooring.engine.kube.ResourceType;
import dev.mooring.engine.pass.RequestScope;
import dev.mooring.engine.trace.LogFields;
import dev.mooring.engine.trace.Tracing;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.cert.X509Certificate;
import java.time.Duration;
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
import java.util.function.Function;
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
 * <tr><td>408</td><td>the body was still arriving when the route's timeout, counted from the request's arrival, ran
 * out, or a read of it waited longer than the HTTP port's read timeout (a client that trickles it)</td></tr>
 * <tr><td>429</td><td>a body of at least {@link DecodeBudget#LARGE_BODY} bytes while as many large bodies as the
 * {@link DecodeBudget} allows are being decoded, or not decoded within its CPU time (two seconds by default); or
 * any body not decoded before the route's timeout less {@link DecodeBudget#TIMEOUT_MARGIN}</td></tr>
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

    /** How often a waiting call is checked against the webhook's clock. */
    static final Duration CALL_SLICE = Duration.ofMillis(50);

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
    static final JsonProvider JSON_P = JsonProvider.provider();
    static final String API_VERSION = "admission.k8s.io/v1";

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

        /** Where the spans of admission calls go, asked once; {@link Tracing#NONE} by default. */
        default Tracing tracing() {
            return Tracing.NONE;
        }

        /** It was answered with this HTTP status; {@code denied} for a 200 that does not allow. */
        void answered(AdmissionRoute route, int status, boolean denied, java.time.Duration duration);
    }

    /** A request that passed every check: what the method gets, and what the patch needs. */
    private record Decoded(TypedAdmissionRequest<?> request, JsonObject sentObject, JsonValue decodedObject) {
    }

    private final Map<String, BoundRoute> routes = new LinkedHashMap<>();
    private final ExecutorService executor;
    private final AdmissionReads reads;
    private final RequestScope scope;
    private final BoundedJson json;
    private final DecodeBudget budget;
    private final ClientTrust clients;
    private final Observer observer;
    private final Tracing tracing;

    /**
     * A dispatcher of {@code routes}, each bound to the bean {@code beans} gives for its class,
     * each call run on {@code executor} (so that a call that overruns its timeout can be
     * abandoned), reading through {@code reads} (the caches and the live client). Defaults: no
     * request scope, no observer, {@link DecodeBudget#standard()}, any client certificate.
     */
    public static Builder builder(List<AdmissionRoute> routes, Function<Class<?>, Object> beans, ExecutorService executor,
            AdmissionReads reads) {
        return new Builder(routes, beans, executor, reads);
    }

    /** The optional parts of a dispatcher. */
    public static final class Builder {
        private final List<AdmissionRoute> routes;
        private final Function<Class<?>, Object> beans;
        private final ExecutorService executor;
        private final AdmissionReads reads;
        private RequestScope scope = RequestScope.NONE;
        private Observer observer = Observer.NONE;
        private DecodeBudget budget = DecodeBudget.standard();
        private ClientTrust clients = ClientTrust.ANY;

        private Builder(List<AdmissionRoute> routes, Function<Class<?>, Object> beans, ExecutorService executor, AdmissionReads reads) {
            this.routes = List.copyOf(routes);
            this.beans = Objects.requireNonNull(beans, "beans");
            this.executor = Objects.requireNonNull(executor, "executor");
            this.reads = Objects.requireNonNull(reads, "reads");
        }

        /** Activated around each call (a CDI request context in the container). */
        public Builder scope(RequestScope scope) {
            this.scope = Objects.requireNonNull(scope, "scope");
            return this;
        }

        /** Told about every answer (metrics, tracing). */
        public Builder observer(Observer observer) {
            this.observer = Objects.requireNonNull(observer, "observer");
            return this;
        }

        /** Bounds the decoding of request bodies. */
        public Builder budget(DecodeBudget budget) {
            this.budget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /** Which client certificates may call. */
        public Builder clients(ClientTrust clients) {
            this.clients = Objects.requireNonNull(clients, "clients");
            return this;
        }

        /**
         * @throws IllegalArgumentException if two routes have one path
         * @throws IllegalStateException if a route cannot be bound to its bean
         */
        public AdmissionDispatcher build() {
            return new AdmissionDispatcher(this);
        }
    }

    private AdmissionDispatcher(Builder builder) {
        List<BoundRoute> bound = BoundRoute.bind(builder.routes, builder.beans);
        AdmissionRoutes.requireUniquePaths(bound.stream().map(BoundRoute::route).toList());
        this.budget = builder.budget;
        this.clients = builder.clients;
        this.json = new BoundedJson(LIMITS, JSON_P);
        bound.forEach(route -> this.routes.put(route.route().path(), route));
        this.executor = builder.executor;
        this.reads = builder.reads;
        this.scope = builder.scope;
        this.observer = builder.observer;
        this.tracing = observer.tracing();
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
            return ReviewAnswers.message(404, "Unknown webhook path");
        }
        AdmissionRoute route = bound.route();
        long start = budget.now(); // the route's timeout counts on the webhook's clock
        long arrived = System.nanoTime(); // the latency metric on the system's
        observer.started(route);
        Answer answer = answer(bound, method, contentType, body, secure, clientChain, start);
        observer.answered(route, answer.status(), answer.denied(), Duration.ofNanos(System.nanoTime() - arrived));
        return answer;
    }

    private Answer answer(BoundRoute bound, String method, String contentType, InputStream body, boolean secure,
            X509Certificate[] clientChain, long start) {
        AdmissionRoute route = bound.route();
        if (!secure) {
            return ReviewAnswers.message(403, "Admission webhooks are served over HTTPS only");
        }
        String refusal = clients.refusal(clientChain);
        if (refusal != null) {
            LOG.fine(() -> "A request to " + route.path() + " refused: " + refusal);
            return ReviewAnswers.message(403, "Client certificate refused: " + refusal);
        }
        if (!"POST".equals(method)) {
            return ReviewAnswers.message(405, "Webhook requests require POST");
        }
        if (contentType == null || !contentType.split(";", 2)[0].trim().equalsIgnoreCase("application/json")) {
            return ReviewAnswers.message(415, "Expected application/json");
        }
        byte[] bytes;
        try {
            bytes = readAtMost(body, MAX_BODY_BYTES, start + TimeUnit.SECONDS.toNanos(route.call().timeoutSeconds()), budget::now);
        } catch (SlowBody e) {
            LOG.fine(() -> "A request to " + route.path() + " refused: its body did not arrive within " + route.call().timeoutSeconds() + " s");
            return ReviewAnswers.message(408, "The AdmissionReview did not arrive within the webhook's timeout of "
                    + route.call().timeoutSeconds() + " s");
        } catch (IOException e) {
            if (timedOut(e)) {
                // the HTTP port's read timeout (server.xml: mooring.http.read-timeout) ended a read that waited for bytes
                return ReviewAnswers.message(408, "The AdmissionReview did not arrive in time: the port's read timeout passed");
            }
            return ReviewAnswers.message(400, "The AdmissionReview could not be read: " + e.getMessage());
        }
        if (bytes == null) {
            return ReviewAnswers.message(413, "AdmissionReview exceeds " + MAX_BODY_BYTES + " bytes");
        }
        Duration timeLeft = Duration.ofSeconds(route.call().timeoutSeconds()).minusNanos(budget.now() - start);
        Optional<DecodeBudget.Ticket> ticket = budget.enter(bytes.length, timeLeft.isNegative() ? Duration.ZERO : timeLeft);
        if (ticket.isEmpty()) {
            LOG.fine(() -> "A review of " + bytes.length + " bytes refused: " + budget.slots() + " large reviews are being decoded");
            return ReviewAnswers.message(429, "Too many large AdmissionReviews are being decoded at once (" + budget.slots()
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
        try (LogFields.Scope fields = fields(bound.route(), decoded.request())) {
            return reviewLogged(bound, decoded, start);
        }
    }

    /** The fields of this review on the log records of the thread that opens them. */
    private static LogFields.Scope fields(AdmissionRoute route, TypedAdmissionRequest<?> request) {
        // a CONNECT's request is its options, of no kind of their own: the admitted resource's kind
        ResourceType<?> kind = route.requestKind() != null ? route.requestKind() : route.rule().target();
        return LogFields.admission(route.path(), request.operation().name(), kind == null ? null : kind.kind(), request.namespace(),
                request.name(), request.uid());
    }

    /** The span of the admission method's call, on the thread that runs it (its API requests are its children). */
    private Tracing.Span span(AdmissionRoute route, TypedAdmissionRequest<?> request) {
        ResourceType<?> kind = route.requestKind() != null ? route.requestKind() : route.rule().target();
        return tracing.admission(route.path(), request.operation().name(), kind == null ? null : kind.kind(), request.namespace(),
                request.name(), request.uid());
    }

    private Answer reviewLogged(BoundRoute bound, Decoded decoded, long start) {
        AdmissionRoute route = bound.route();
        TypedAdmissionRequest<?> request = decoded.request();
        Future<Object> call;
        try {
            call = executor.submit(() -> {
                try (RequestScope.Activation active = scope.activate(); LogFields.Scope fields = fields(route, request);
                        Tracing.Span span = span(route, request); LogFields.Scope traced = LogFields.trace(span)) {
                    try {
                        Object answer = bound.call(request);
                        span.outcome("answered");
                        return answer;
                    } catch (AdmissionDenied denied) {
                        span.outcome("denied");
                        throw denied;
                    } catch (Exception | Error e) {
                        span.outcome("failed");
                        throw e;
                    }
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.warning(() -> "Admission is overloaded: every admission thread is busy and the queue is full; " + request
                    + " refused (mooring.admission.threads, mooring.admission.queue)");
            return ReviewAnswers.message(503, "Admission webhook is overloaded: every admission thread is busy", request.uid());
        }
        Object result;
        try {
            // the route's timeout is the API server's: it counts from the request's arrival, decoding included
            result = awaitCall(call, start + TimeUnit.SECONDS.toNanos(route.call().timeoutSeconds()));
        } catch (TimeoutException e) {
            call.cancel(true);
            LOG.warning(() -> "Admission method " + route.describe() + " did not answer " + request + " within "
                    + route.call().timeoutSeconds() + " s");
            return ReviewAnswers.message(504, "Admission webhook timed out", request.uid());
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            return ReviewAnswers.message(503, "The server is stopping", request.uid());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AdmissionDenied denied) {
                return ReviewAnswers.denial(request, denied.code(), denied.reason(), denied.getMessage());
            }
            return failure(route, request, e.getCause());
        }
        if (!route.mutating() || result == null) {
            return ReviewAnswers.allowed(request, null);
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
        return ReviewAnswers.allowed(request, patch.isEmpty() ? null : patch);
    }

    private Decoded decode(AdmissionRoute route, byte[] bytes, DecodeBudget.Ticket ticket) throws Refused {
        ReviewDocument review;
        try {
            review = ReviewDocument.of(json.parse(bytes, ticket::expired));
        } catch (BoundedJson.Rejected e) {
            if (e.overDeadline()) {
                throw overBudget(bytes.length, ticket);
            }
            throw ReviewChecks.invalid(null, e.getMessage());
        } catch (IllegalArgumentException e) {
            throw ReviewChecks.invalid(null, e.getMessage());
        }
        if (!API_VERSION.equals(review.apiVersion()) || !"AdmissionReview".equals(review.kind())) {
            throw ReviewChecks.invalid(null, "expected apiVersion " + API_VERSION + " and kind AdmissionReview");
        }
        ReviewDocument.Request request = review.request();
        if (request == null) {
            throw ReviewChecks.invalid(null, "the review has no request");
        }
        if (request.uid() == null || request.uid().isBlank()) {
            throw ReviewChecks.invalid(null, "request.uid is missing");
        }
        String uid = request.uid();
        Operation operation = ReviewChecks.operation(uid, request.operation());
        if (!route.rule().operations().contains(operation)) {
            throw ReviewChecks.invalid(uid, "this webhook admits " + route.rule().operations() + ", not " + operation);
        }
        ReviewChecks.checkResource(route, uid, request);
        ReviewChecks.checkObjects(uid, operation, request);
        KubernetesObject object = ReviewChecks.typed(route, uid, request.object(), "object");
        KubernetesObject oldObject = ReviewChecks.typed(route, uid, request.oldObject(), "oldObject");
        if (ticket.expired()) {
            throw overBudget(bytes.length, ticket);
        }
        JsonValue decodedObject = object == null ? null : Patches.toJson(object);
        ReviewDocument.User user = request.userInfo();
        UserInfo userInfo = user == null ? new UserInfo("", "", List.of(), Map.of())
                : new UserInfo(user.username(), user.uid(), user.groups(), user.extra());
        TypedAdmissionRequest<?> typed = new TypedAdmissionRequest<>(uid, operation, object, oldObject, request.name(),
                request.namespace(), request.subResource(), request.dryRun(), userInfo, route.beanClass(), reads);
        return new Decoded(typed, request.object(), decodedObject);
    }

    private Answer failure(AdmissionRoute route, AdmissionRequest<?> request, Throwable cause) {
        LOG.log(Level.WARNING, "Admission method " + route.describe() + " failed on " + request, cause);
        return ReviewAnswers.denial(request, 500, "InternalError", "Admission webhook " + route.path() + " failed; the operator log has the cause");
    }

    private static Refused overBudget(int bytes, DecodeBudget.Ticket ticket) {
        String overrun = Objects.requireNonNullElse(ticket.overrun(), "within its budget");
        LOG.fine(() -> "A review of " + bytes + " bytes was not decoded " + overrun);
        return new Refused(ReviewAnswers.message(429, "The AdmissionReview was not decoded " + overrun + "; try again"));
    }

    /**
     * The call's result, waited for until {@code deadline} on the webhook's clock (the budget's:
     * the system clock outside tests), looked at every {@link #CALL_SLICE} of real time.
     *
     * @throws TimeoutException when the deadline passed first
     */
    private Object awaitCall(Future<Object> call, long deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        for (;;) {
            long left = deadline - budget.now();
            try {
                return call.get(Math.max(0, Math.min(left, CALL_SLICE.toNanos())), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                if (deadline - budget.now() <= 0) {
                    throw e;
                }
            }
        }
    }

    /** True when a read failed because it waited too long (Liberty's own timeout exception is not a SocketTimeoutException). */
    static boolean timedOut(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.net.SocketTimeoutException || cause.getClass().getSimpleName().contains("Timeout")) {
                return true;
            }
        }
        return false;
    }

    /** A body whose bytes were still arriving at its deadline. */
    static final class SlowBody extends IOException {
        private static final long serialVersionUID = 1L;

        SlowBody() {
            super("the body did not arrive in time", null);
        }
    }

    /**
     * The stream's bytes, or null when there are more than {@code limit}.
     *
     * @param deadline when the last byte must have arrived, on {@code nanoTime}; checked after
     *     every read, so that a client that trickles its body is cut off at the first read after
     *     it (a read that waits is bounded by the HTTP port's read timeout, server.xml)
     * @throws SlowBody when the deadline passed before the end of the body
     */
    static byte[] readAtMost(InputStream in, int limit, long deadline, java.util.function.LongSupplier nanoTime) throws IOException {
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
            if (nanoTime.getAsLong() - deadline > 0) {
                throw new SlowBody();
            }
        }
        return out.toByteArray();
    }

}
