package dev.mooring.engine.access;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.engine.kube.KubeHttp;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who may read a path of Mooring's HTTPS port, as the API server decides: the caller's bearer
 * token is authenticated with a {@code TokenReview} and its user authorized with a
 * {@code SubjectAccessReview} of the non-resource URL and verb, as controller-runtime's secure
 * metrics server does (its authentication and authorization filter).
 *
 * <p>Decisions are cached by the token's SHA-256 digest, path and verb (the token itself is not
 * kept): an allowance for {@code allowFor}, a refusal for {@code denyFor}, so that a scraper costs
 * the API server two requests per {@code allowFor}, not per scrape. A failure to reach the API
 * server is not cached. The cache holds at most {@code capacity} decisions; when it is full the
 * expired ones are dropped, and all of them if none has expired, so that callers with ever new
 * tokens cannot grow it.
 *
 * <p>Reviews of callers not known are bounded by a {@link ReviewBudget}: beyond its rate or its
 * reviews in flight a caller is answered 429 at once, without asking the API server. A caller
 * whose token was allowed before (its allowance expired, still in the cache) is known: its
 * review is not counted against the budget, so that a scraper goes on being served through a
 * flood of unknown tokens. The budget also bounds how fast refusals enter the cache, far below
 * its capacity, so a flood cannot evict a scraper's allowance.
 *
 * <p>Thread-safe. {@link #check} blocks for up to two API requests, each bounded by
 * {@code timeout}.
 */
public final class DelegatedAccess {

    /** Longest token accepted (ServiceAccount tokens are about 1 KiB); a longer one is refused unread. */
    static final int MAX_TOKEN_LENGTH = 16 * 1024;

    /**
     * An answer to a caller.
     *
     * @param status the HTTP status to answer with: 200 allowed, 401 not authenticated, 403 not
     *     authorized, 429 too many unknown callers are being reviewed, 503 the API server could not decide
     * @param reason why, naming the user where one was authenticated (never the token)
     */
    public record Decision(int status, String reason) {

        /** Whether the caller may go on. */
        public boolean allowed() {
            return status == 200;
        }
    }

    private record Cached(Decision decision, Instant until) {
    }

    private final KubeHttp api;
    private final Clock clock;
    private final Duration allowFor;
    private final Duration denyFor;
    private final int capacity;
    private final Duration timeout;
    private final ReviewBudget budget;
    private final Map<String, Cached> decisions = new ConcurrentHashMap<>();

    /**
     * @param api the operator's connection (its ServiceAccount needs {@code create} on
     *     {@code tokenreviews} and {@code subjectaccessreviews})
     * @param clock the time, for the cache
     * @param allowFor how long an allowance is reused
     * @param denyFor how long a refusal is reused
     * @param capacity the most decisions kept
     * @param timeout the bound of each review request
     * @param limits how many reviews of unknown callers may start a second and be in flight at once
     */
    public DelegatedAccess(KubeHttp api, Clock clock, Duration allowFor, Duration denyFor, int capacity, Duration timeout,
            ReviewBudget.Limits limits) {
        this.api = Objects.requireNonNull(api, "api");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.allowFor = Objects.requireNonNull(allowFor, "allowFor");
        this.denyFor = Objects.requireNonNull(denyFor, "denyFor");
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.budget = new ReviewBudget(limits, clock);
    }

    /**
     * Whether the caller with this {@code Authorization} header may {@code verb} {@code path}.
     * Never throws: a missing or malformed header is a 401 without asking the API server, an
     * unknown caller beyond the review budget a 429 without asking it, and a failed review a 503.
     */
    public Decision check(String authorization, String path, String verb) {
        String token = bearerToken(authorization);
        if (token == null) {
            return new Decision(401, authorization == null || authorization.isBlank() ? "no bearer token (Authorization: Bearer <token>)"
                    : "the Authorization header is not 'Bearer <token>' with a token of at most " + MAX_TOKEN_LENGTH + " characters");
        }
        String key = digest(token) + " " + verb + " " + path;
        Instant now = clock.instant();
        Cached cached = decisions.get(key);
        if (cached != null && now.isBefore(cached.until())) {
            return cached.decision();
        }
        boolean known = cached != null && cached.decision().allowed();
        ReviewBudget.Permit permit = known ? null : budget.tryStart();
        if (!known && permit == null) {
            ReviewBudget.Limits limits = budget.limits();
            return new Decision(429, "too many callers with new tokens are being reviewed (at most " + limits.perSecond()
                    + " a second, " + limits.concurrent() + " at once); try again later");
        }
        Decision decision;
        try {
            decision = review(token, path, verb);
        } catch (RuntimeException e) {
            return new Decision(503, "the API server could not review the caller: " + e.getMessage());
        } finally {
            if (permit != null) {
                permit.close();
            }
        }
        remember(key, decision, now);
        return decision;
    }

    /** How many decisions are cached now (for tests). */
    int cached() {
        return decisions.size();
    }

    private Decision review(String token, String path, String verb) {
        JsonObject tokenReview = new JsonObject();
        tokenReview.addProperty("apiVersion", "authentication.k8s.io/v1");
        tokenReview.addProperty("kind", "TokenReview");
        JsonObject tokenSpec = new JsonObject();
        tokenSpec.addProperty("token", token);
        tokenReview.add("spec", tokenSpec);
        JsonObject reviewed = status(api.send("POST", "/apis/authentication.k8s.io/v1/tokenreviews", Map.of(), tokenReview.toString(),
                "application/json", timeout));
        if (!bool(reviewed, "authenticated")) {
            String error = text(reviewed, "error");
            return new Decision(401, "the API server did not authenticate the token" + (error.isEmpty() ? "" : ": " + error));
        }
        JsonObject user = reviewed.has("user") && reviewed.get("user").isJsonObject() ? reviewed.getAsJsonObject("user")
                : new JsonObject();
        String name = text(user, "username");
        JsonObject spec = new JsonObject();
        spec.addProperty("user", name);
        if (user.has("uid")) {
            spec.add("uid", user.get("uid"));
        }
        if (user.has("groups") && user.get("groups").isJsonArray()) {
            spec.add("groups", user.get("groups"));
        }
        if (user.has("extra") && user.get("extra").isJsonObject()) {
            spec.add("extra", user.get("extra"));
        }
        JsonObject nonResource = new JsonObject();
        nonResource.addProperty("path", path);
        nonResource.addProperty("verb", verb);
        spec.add("nonResourceAttributes", nonResource);
        JsonObject accessReview = new JsonObject();
        accessReview.addProperty("apiVersion", "authorization.k8s.io/v1");
        accessReview.addProperty("kind", "SubjectAccessReview");
        accessReview.add("spec", spec);
        JsonObject decided = status(api.send("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", Map.of(),
                accessReview.toString(), "application/json", timeout));
        if (!bool(decided, "allowed")) {
            String reason = text(decided, "reason");
            String error = text(decided, "evaluationError");
            return new Decision(403, "user " + name + groups(user) + " may not " + verb + " " + path
                    + (reason.isEmpty() ? "" : ": " + reason) + (error.isEmpty() ? "" : " (" + error + ")"));
        }
        return new Decision(200, "user " + name + " may " + verb + " " + path);
    }

    private void remember(String key, Decision decision, Instant now) {
        if (decisions.size() >= capacity) {
            decisions.values().removeIf(entry -> !now.isBefore(entry.until()));
            if (decisions.size() >= capacity) {
                decisions.clear();
            }
        }
        decisions.put(key, new Cached(decision, now.plus(decision.allowed() ? allowFor : denyFor)));
    }

    /** The token of {@code Bearer <token>} (scheme case-insensitive), or null when there is none or it is too long. */
    static String bearerToken(String authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.strip();
        if (value.length() < 8 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = value.substring(7).strip();
        if (token.isEmpty() || token.length() > MAX_TOKEN_LENGTH || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
            return null;
        }
        return token;
    }

    private static String groups(JsonObject user) {
        if (!user.has("groups") || !user.get("groups").isJsonArray()) {
            return "";
        }
        JsonArray groups = user.getAsJsonArray("groups");
        StringBuilder text = new StringBuilder(" (groups ");
        for (JsonElement group : groups) {
            text.append(text.length() > 9 ? ", " : "").append(group.isJsonPrimitive() ? group.getAsString() : "?");
        }
        return text.append(')').toString();
    }

    private static JsonObject status(JsonObject review) {
        return review.has("status") && review.get("status").isJsonObject() ? review.getAsJsonObject("status") : new JsonObject();
    }

    private static boolean bool(JsonObject object, String field) {
        JsonElement value = object.get(field);
        return value != null && value.isJsonPrimitive() && value.getAsJsonPrimitive().isBoolean() && value.getAsBoolean();
    }

    private static String text(JsonObject object, String field) {
        JsonElement value = object.get(field);
        return value != null && value.isJsonPrimitive() ? value.getAsString() : "";
    }

    private static String digest(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
