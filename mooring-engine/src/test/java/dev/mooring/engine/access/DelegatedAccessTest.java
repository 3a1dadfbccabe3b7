package dev.mooring.engine.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import org.junit.jupiter.api.Test;

/**
 * The access check's own rules: what it asks the API server, what it answers for each of the
 * server's decisions, and its cache. The reviews' answers are scripted below the HTTP client; the
 * decisions of a real API server are tested by SecureMetricsIT.
 */
class DelegatedAccessTest {

    private static final String PATH = "/mooring/metrics";

    /** A clock the test moves. */
    private static final class MovingClock extends Clock {
        Instant now = Instant.parse("2026-12-02T10:00:00Z");

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    /** Answers reviews with {@code answer} (code and body per request), recording each request's path and body. */
    private static final class ScriptedServer {
        final List<String> paths = new ArrayList<>();
        final List<JsonObject> bodies = new ArrayList<>();
        Function<String, Response.Builder> answer;

        KubeHttp http() {
            OkHttpClient transport = new OkHttpClient.Builder().addInterceptor(chain -> {
                Buffer buffer = new Buffer();
                chain.request().body().writeTo(buffer);
                String path = chain.request().url().encodedPath();
                paths.add(path);
                bodies.add(JsonParser.parseString(buffer.readUtf8()).getAsJsonObject());
                return answer.apply(path).request(chain.request()).protocol(Protocol.HTTP_1_1).message("scripted").build();
            }).build();
            return new KubeHttp(new ApiClient(transport).setBasePath("http://apiserver.invalid"));
        }
    }

    private static Response.Builder ok(String json) {
        return new Response.Builder().code(201).body(ResponseBody.create(json, MediaType.get("application/json")));
    }

    /** An API server that knows token "good" as user alice in group ops, and lets ops get PATH. */
    private static Function<String, Response.Builder> server(boolean allowed) {
        return path -> path.endsWith("tokenreviews")
                ? ok("{\"kind\":\"TokenReview\",\"status\":{\"authenticated\":true,\"user\":{\"username\":\"alice\",\"uid\":\"u1\","
                        + "\"groups\":[\"ops\",\"system:authenticated\"]}}}")
                : ok("{\"kind\":\"SubjectAccessReview\",\"status\":{\"allowed\":" + allowed + (allowed ? "" : ",\"reason\":\"no rule\"")
                        + "}}");
    }

    private final MovingClock clock = new MovingClock();
    private final ScriptedServer server = new ScriptedServer();

    /** An access check whose review budget never runs out in these tests. */
    private DelegatedAccess access(int capacity) {
        return access(capacity, new ReviewBudget.Limits(1000, 1000, 10));
    }

    private DelegatedAccess access(int capacity, ReviewBudget.Limits limits) {
        return new DelegatedAccess(server.http(), clock, Duration.ofMinutes(1), Duration.ofSeconds(10), capacity,
                Duration.ofSeconds(5), limits);
    }

    @Test
    void anAuthenticatedAndAuthorizedCallerIsAllowedAfterOneReviewOfEachKind() {
        server.answer = server(true);
        DelegatedAccess.Decision decision = access(10).check("Bearer good", PATH, "get");
        assertTrue(decision.allowed(), decision.reason());
        assertEquals(List.of("/apis/authentication.k8s.io/v1/tokenreviews", "/apis/authorization.k8s.io/v1/subjectaccessreviews"),
                server.paths);
        assertEquals("good", server.bodies.get(0).getAsJsonObject("spec").get("token").getAsString());
        JsonObject spec = server.bodies.get(1).getAsJsonObject("spec");
        assertEquals("alice", spec.get("user").getAsString());
        assertEquals("u1", spec.get("uid").getAsString());
        assertEquals("[\"ops\",\"system:authenticated\"]", spec.get("groups").toString());
        assertEquals("{\"path\":\"/mooring/metrics\",\"verb\":\"get\"}", spec.get("nonResourceAttributes").toString());
        assertFalse(spec.has("resourceAttributes"));
    }

    @Test
    void theUsersExtrasGoToTheAccessReviewAndAUserWithoutGroupsOrExtrasSendsNone() {
        server.answer = path -> path.endsWith("tokenreviews")
                ? ok("{\"kind\":\"TokenReview\",\"status\":{\"authenticated\":true,\"user\":{\"username\":\"bob\","
                        + "\"extra\":{\"scopes.example.com\":[\"metrics\"]}}}}")
                : ok("{\"kind\":\"SubjectAccessReview\",\"status\":{\"allowed\":true}}");
        assertTrue(access(10).check("Bearer scoped", PATH, "get").allowed());
        JsonObject spec = server.bodies.get(1).getAsJsonObject("spec");
        assertEquals("{\"scopes.example.com\":[\"metrics\"]}", spec.get("extra").toString(), "an authorizer may decide on extras");
        assertFalse(spec.has("uid") || spec.has("groups"), spec.toString());
    }

    @Test
    void aRefusedUserGets403NamingTheUserAndTheServersReason() {
        server.answer = server(false);
        DelegatedAccess.Decision decision = access(10).check("Bearer good", PATH, "get");
        assertEquals(403, decision.status());
        assertEquals("user alice (groups ops, system:authenticated) may not get /mooring/metrics: no rule", decision.reason());
    }

    @Test
    void anUnknownTokenGets401WithoutAnAccessReview() {
        server.answer = path -> ok("{\"kind\":\"TokenReview\",\"status\":{\"authenticated\":false,\"error\":\"invalid bearer token\"}}");
        DelegatedAccess.Decision decision = access(10).check("bearer nobody", PATH, "get");
        assertEquals(401, decision.status());
        assertEquals("the API server did not authenticate the token: invalid bearer token", decision.reason());
        assertEquals(1, server.paths.size());
    }

    @Test
    void aMissingOrMalformedHeaderGets401WithoutAskingTheServer() {
        server.answer = server(true);
        DelegatedAccess access = access(10);
        for (String header : new String[] {null, "", "Basic YWxpY2U6c2VjcmV0", "Bearer ", "Bearer two words",
                "Bearer " + "x".repeat(DelegatedAccess.MAX_TOKEN_LENGTH + 1), "Bearer caf\u00e9"}) {
            DelegatedAccess.Decision decision = access.check(header, PATH, "get");
            assertEquals(401, decision.status(), String.valueOf(header));
            assertTrue(decision.reason().contains("Bearer"), decision.reason());
        }
        assertEquals(List.of(), server.paths);
        assertNull(DelegatedAccess.bearerToken("Bearer"));
        assertEquals("t0k3n", DelegatedAccess.bearerToken(" BEARER t0k3n "));
    }

    @Test
    void aTokenIsPrintableAsciiOfOneTo16KiBCharactersAndTheReviewsSayWhatTheyAre() {
        assertEquals("x", DelegatedAccess.bearerToken("Bearer x"), "the shortest header");
        String longest = "x".repeat(DelegatedAccess.MAX_TOKEN_LENGTH);
        assertEquals(longest, DelegatedAccess.bearerToken("Bearer " + longest));
        assertEquals("!~", DelegatedAccess.bearerToken("Bearer !~"), "the first and last printable characters");
        assertNull(DelegatedAccess.bearerToken("Bearer a\u007fb"));
        assertNull(DelegatedAccess.bearerToken("Bearer a\u001fb"));
        assertNull(DelegatedAccess.bearerToken("Bearerxx"));
        server.answer = server(true);
        DelegatedAccess access = access(10);
        assertEquals("no bearer token (Authorization: Bearer <token>)", access.check(" ", PATH, "get").reason());
        assertEquals("the Authorization header is not 'Bearer <token>' with a token of at most 16384 characters",
                access.check("Basic x", PATH, "get").reason());
        assertTrue(access.check("Bearer good", PATH, "get").allowed());
        assertEquals("authentication.k8s.io/v1", server.bodies.get(0).get("apiVersion").getAsString());
        assertEquals("TokenReview", server.bodies.get(0).get("kind").getAsString());
        assertEquals("authorization.k8s.io/v1", server.bodies.get(1).get("apiVersion").getAsString());
        assertEquals("SubjectAccessReview", server.bodies.get(1).get("kind").getAsString());
        assertEquals(1, access.cached());
        assertThrows(IllegalArgumentException.class, () -> access(0));
        assertEquals(0, access(1).cached());
    }

    @Test
    void aFullCacheDropsItsExpiredDecisionsFirst() {
        server.answer = server(true);
        DelegatedAccess access = access(2);
        assertTrue(access.check("Bearer old", PATH, "get").allowed());
        clock.now = clock.now.plus(Duration.ofMinutes(2)); // the allowance of "old" expired
        assertTrue(access.check("Bearer kept", PATH, "get").allowed());
        assertTrue(access.check("Bearer new", PATH, "get").allowed());
        assertEquals(2, access.cached(), "the expired decision made room; the live one stayed");
        int asked = server.paths.size();
        assertTrue(access.check("Bearer kept", PATH, "get").allowed());
        assertEquals(asked, server.paths.size(), "the live decision is still cached");
    }

    @Test
    void anAllowanceIsReusedForItsTimeAndARefusalForItsShorterTime() {
        server.answer = server(true);
        DelegatedAccess access = access(10);
        access.check("Bearer good", PATH, "get");
        clock.now = clock.now.plusSeconds(59);
        assertTrue(access.check("Bearer good", PATH, "get").allowed());
        assertEquals(2, server.paths.size(), "the allowance was reused");
        assertTrue(access.check("Bearer good", "/other", "get").allowed());
        assertEquals(4, server.paths.size(), "another path is reviewed apart");
        clock.now = clock.now.plusSeconds(2);
        access.check("Bearer good", PATH, "get");
        assertEquals(6, server.paths.size(), "an allowance older than a minute is reviewed again");

        server.answer = server(false);
        access.check("Bearer other", PATH, "get");
        clock.now = clock.now.plusSeconds(9);
        assertEquals(403, access.check("Bearer other", PATH, "get").status());
        assertEquals(8, server.paths.size(), "the refusal was reused");
        clock.now = clock.now.plusSeconds(2);
        access.check("Bearer other", PATH, "get");
        assertEquals(10, server.paths.size(), "a refusal older than 10 s is reviewed again");
    }

    @Test
    void aServerThatCannotAnswerGets503AndIsAskedAgainNextTime() {
        server.answer = path -> new Response.Builder().code(500).body(ResponseBody.create(
                "{\"kind\":\"Status\",\"status\":\"Failure\",\"message\":\"etcd is down\",\"code\":500}", MediaType.get("application/json")));
        DelegatedAccess access = access(10);
        DelegatedAccess.Decision decision = access.check("Bearer good", PATH, "get");
        assertEquals(503, decision.status());
        assertTrue(decision.reason().contains("etcd is down"), decision.reason());
        access.check("Bearer good", PATH, "get");
        assertEquals(2, server.paths.size(), "a failure is not cached");
        assertEquals(0, access.cached());
    }

    @Test
    void everNewTokensDoNotGrowTheCacheBeyondItsCapacity() {
        server.answer = path -> ok("{\"kind\":\"TokenReview\",\"status\":{\"authenticated\":false}}");
        DelegatedAccess access = access(3);
        for (int i = 0; i < 20; i++) {
            assertEquals(401, access.check("Bearer random-" + i, PATH, "get").status());
            assertTrue(access.cached() <= 3, "cached " + access.cached());
        }
    }

    @Test
    void aFloodOfNewTokensIsReviewedAtTheBudgetsRateAndTheRestAre429WithoutARequest() {
        server.answer = path -> ok("{\"kind\":\"TokenReview\",\"status\":{\"authenticated\":false}}");
        DelegatedAccess access = access(1024, new ReviewBudget.Limits(5, 10, 2));
        int refused = 0;
        for (int i = 0; i < 2000; i++) {
            if (i % 100 == 0) {
                clock.now = clock.now.plusSeconds(1);
            }
            DelegatedAccess.Decision decision = access.check("Bearer random-" + i, PATH, "get");
            if (decision.status() == 429) {
                refused++;
                assertTrue(decision.reason().contains("at most 5 a second, 2 at once"), decision.reason());
            } else {
                assertEquals(401, decision.status(), decision.reason());
            }
        }
        // 20 seconds: the burst of 10 (the first second's tokens are in it, the bucket was full) and 5 more a second after it
        assertEquals(10 + 19 * 5, server.paths.size(), "TokenReviews sent");
        assertEquals(2000 - server.paths.size(), refused);
        assertTrue(access.cached() <= 10 + 19 * 5, "cached " + access.cached());
    }

    @Test
    void aKnownScraperIsReviewedAgainThroughAFloodThatSpentTheBudget() {
        server.answer = path -> path.contains("tokenreviews") && !server.bodies.get(server.bodies.size() - 1).toString().contains("good")
                ? ok("{\"kind\":\"TokenReview\",\"status\":{\"authenticated\":false}}") : server(true).apply(path);
        DelegatedAccess access = access(1024, new ReviewBudget.Limits(1, 1, 1));
        assertTrue(access.check("Bearer good", PATH, "get").allowed());
        clock.now = clock.now.plusSeconds(61);
        assertEquals(401, access.check("Bearer random-1", PATH, "get").status(), "the one review of the second");
        assertEquals(429, access.check("Bearer random-2", PATH, "get").status(), "the budget is spent");
        int sent = server.paths.size();
        DelegatedAccess.Decision scraper = access.check("Bearer good", PATH, "get");
        assertTrue(scraper.allowed(), "the scraper's expired allowance is reviewed again: " + scraper.reason());
        assertEquals(sent + 2, server.paths.size(), "its review was sent");
    }

    @Test
    void reviewsInFlightAreCapped() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch arrived = new java.util.concurrent.CountDownLatch(2);
        server.answer = path -> {
            arrived.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ok("{\"kind\":\"TokenReview\",\"status\":{\"authenticated\":false}}");
        };
        DelegatedAccess access = access(1024, new ReviewBudget.Limits(100, 100, 2));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            var first = pool.submit(() -> access.check("Bearer slow-1", PATH, "get"));
            var second = pool.submit(() -> access.check("Bearer slow-2", PATH, "get"));
            arrived.await();
            DelegatedAccess.Decision third = access.check("Bearer slow-3", PATH, "get");
            assertEquals(429, third.status(), "two reviews in flight: " + third.reason());
            release.countDown();
            assertEquals(401, first.get().status());
            assertEquals(401, second.get().status());
            assertEquals(401, access.check("Bearer slow-3", PATH, "get").status(), "the permits were given back");
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void nonsensicalLimitsAreRefused() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new ReviewBudget.Limits(0, 1, 1));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new ReviewBudget.Limits(1, 0, 1));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new ReviewBudget.Limits(1, 1, 0));
    }
}
