package dev.mooring.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Cache;
import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Mutating;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.Validating;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.engine.certificates.ClientTrust;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Scale;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AdmissionDispatcherTest {

    static final String WIDGETS = "/validate/example/com/v1/widgets/check";
    static final String MUTATE_WIDGETS = "/mutate/example/com/v1/widgets/paint";
    static final String DEPLOYMENTS = "/validate/apps/v1/deployments/on-delete";
    static final String SCALE = "/validate/apps/v1/deployments/limit";

    /** Test policies: what each does is what the tests below expect. */
    static class Policies {
        /** The webhook's clock of aCallOverItsTimeoutIs504, moved by the slow policy (the other tests' stands still). */
        final java.util.concurrent.atomic.AtomicLong webhookClock = new java.util.concurrent.atomic.AtomicLong();
        final List<AdmissionRequest<?>> seen = new ArrayList<>();

        @Validating(operations = {Operation.CREATE, Operation.UPDATE}, timeoutSeconds = 1)
        void check(AdmissionRequest<Widget> request) throws AdmissionDenied, InterruptedException {
            seen.add(request);
            Widget.Spec spec = request.object().spec;
            if (spec != null && "red".equals(spec.color)) {
                throw new AdmissionDenied("red is not allowed");
            }
            if (spec != null && "invalid".equals(spec.color)) {
                throw new AdmissionDenied(422, "spec.color: invalid");
            }
            if (spec != null && "boom".equals(spec.color)) {
                throw new IllegalStateException("secret internals");
            }
            if (spec != null && "slow".equals(spec.color)) {
                webhookClock.addAndGet(java.util.concurrent.TimeUnit.SECONDS.toNanos(2)); // past the route's 1 s
                new java.util.concurrent.CountDownLatch(1).await(); // until the dispatcher gives up on the call
            }
            if (spec != null && "late".equals(spec.color)) {
                webhookClock.addAndGet(java.util.concurrent.TimeUnit.SECONDS.toNanos(1)); // exactly the route's 1 s
                new java.util.concurrent.CountDownLatch(1).await();
            }
            if (spec != null && "warn".equals(spec.color)) {
                request.warn("warned about warn");
            }
        }

        @Mutating
        Widget paint(AdmissionRequest<Widget> request) {
            Widget widget = request.object();
            if (widget.spec == null || "blue".equals(widget.spec.color)) {
                return "none".equals(widget.getMetadata().getName()) ? null : widget;
            }
            widget.spec.color = "blue";
            widget.getMetadata().putLabelsItem("painted", "true");
            return widget;
        }

        @Validating(operations = Operation.DELETE)
        void onDelete(AdmissionRequest<V1Deployment> request) throws AdmissionDenied {
            seen.add(request);
            throw new AdmissionDenied(403, "Forbidden", "deleting " + request.oldObject().orElseThrow().getMetadata().getName());
        }

        @Validating(target = io.kubernetes.client.openapi.models.V1Pod.class, subresource = "exec", operations = Operation.CONNECT)
        void noExec(AdmissionRequest<io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject> request) throws AdmissionDenied {
            seen.add(request);
            if (request.object().getRaw().getAsJsonArray("command").toString().contains("sh")) {
                throw new AdmissionDenied("no shells in " + request.name());
            }
        }

        @Validating(target = V1Deployment.class, subresource = "scale", operations = Operation.UPDATE)
        void limit(AdmissionRequest<V1Scale> request) throws AdmissionDenied {
            seen.add(request);
            if (request.object().getSpec().getReplicas() > 3) {
                throw new AdmissionDenied(422, "too many: " + request.object().getSpec().getReplicas());
            }
        }
    }

    private final Policies policies = new Policies();
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Counting counting = new Counting();
    private final AdmissionDispatcher dispatcher = AdmissionDispatcher.builder(AdmissionRoutes.of(Policies.class),
            bean -> policies, executor, new NoReads()).observer(counting).budget(unhurried()).build();

    /**
     * A decode budget whose clocks stand still: these tests are about answers, not time, and must
     * not depend on how busy the machine is (the budgets have DecodeBudgetTest, on fake clocks; a
     * call's timeout has aCallOverItsTimeoutIs504, on a clock the slow policy moves).
     */
    static DecodeBudget unhurried() {
        return new DecodeBudget(2, DecodeBudget.DEFAULT_LARGE_CPU, () -> 0L, () -> 0L);
    }

    @AfterEach
    void stop() throws Exception {
        executor.shutdownNow();
    }

    // ---- HTTP-level checks, in their order

    @Test
    void anUnknownPathIs404() {
        assertAnswer(404, "Unknown webhook path", dispatcher.handle("POST", "/validate/nothing", "application/json", body("{}"), true));
    }

    @Test
    void plainHttpIs403() {
        assertAnswer(403, "served over HTTPS only", dispatcher.handle("POST", WIDGETS, "application/json", body(review("CREATE",
                widget("w", "green"), null)), false));
        assertTrue(policies.seen.isEmpty());
    }

    @Test
    void anotherMethodThanPostIs405() {
        assertAnswer(405, "Webhook requests require POST", dispatcher.handle("GET", WIDGETS, null, null, true));
    }

    @Test
    void anotherContentTypeIs415() {
        assertAnswer(415, "Expected application/json", dispatcher.handle("POST", WIDGETS, "text/plain", body("{}"), true));
        assertAnswer(415, "Expected application/json", dispatcher.handle("POST", WIDGETS, null, body("{}"), true));
        assertEquals(200, dispatcher.handle("POST", WIDGETS, "Application/JSON; charset=utf-8",
                body(review("CREATE", widget("w", "green"), null)), true).status());
    }

    @Test
    void eachAdmissionCallIsASpanWithTheReviewsFieldsAndHowTheMethodEnded() {
        dev.mooring.engine.trace.RecordingTracing tracing = new dev.mooring.engine.trace.RecordingTracing();
        Counting traced = new Counting() {
            @Override
            public dev.mooring.engine.trace.Tracing tracing() {
                return tracing;
            }
        };
        AdmissionDispatcher tracedDispatcher = AdmissionDispatcher.builder(AdmissionRoutes.of(Policies.class),
                bean -> policies, executor, new NoReads()).observer(traced).budget(unhurried()).build();
        tracedDispatcher.handle("POST", WIDGETS, "application/json", body(review("CREATE", widget("w", "green"), null)), true);
        tracedDispatcher.handle("POST", WIDGETS, "application/json", body(review("CREATE", widget("w", "red"), null)), true);
        tracedDispatcher.handle("POST", WIDGETS, "application/json", body(review("CREATE", widget("w", "boom"), null)), true);
        tracedDispatcher.handle("POST", WIDGETS, "application/json", body("{"), true); // refused before any call: no span
        List<dev.mooring.engine.trace.RecordingTracing.Recorded> spans = tracing.of("admission");
        assertEquals(List.of("answered", "denied", "failed"), spans.stream().map(span -> span.outcome).toList());
        assertEquals(java.util.Map.of("webhook", WIDGETS, "operation", "CREATE", "kind", "Widget", "namespace", "team-a", "name", "w",
                "uid", "uid-1"), spans.get(0).attributes);
        assertTrue(spans.stream().allMatch(span -> span.ended && span.parent == null), spans.toString());
    }

    @Test
    void aBodyOverFourMebibytesIs413() {
        byte[] big = new byte[AdmissionDispatcher.MAX_BODY_BYTES + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        assertAnswer(413, "exceeds 4194304 bytes", dispatcher.handle("POST", WIDGETS, "application/json",
                new ByteArrayInputStream(big), true));
    }

    @Test
    void aBodyStillArrivingAtItsDeadlineIsCutOffAtTheNextRead() throws Exception {
        // a client that trickles: each read gives one byte and takes a second of the fake clock
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        java.io.InputStream trickle = new java.io.InputStream() {
            @Override
            public int read() {
                now.addAndGet(java.time.Duration.ofSeconds(1).toNanos());
                return 'x';
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                buffer[offset] = (byte) read();
                return 1;
            }
        };
        long deadline = java.time.Duration.ofSeconds(5).toNanos();
        org.junit.jupiter.api.Assertions.assertThrows(AdmissionDispatcher.SlowBody.class,
                () -> AdmissionDispatcher.readAtMost(trickle, 1000, deadline, now::get));
        assertEquals(java.time.Duration.ofSeconds(6).toNanos(), now.get(), "cut off at the first read after the deadline");
        now.set(0);
        assertEquals(3, AdmissionDispatcher.readAtMost(new ByteArrayInputStream(new byte[3]), 1000, deadline, now::get).length,
                "a body read in time");
        assertEquals(1000, AdmissionDispatcher.readAtMost(new ByteArrayInputStream(new byte[1000]), 1000, deadline, now::get).length,
                "the limit itself is allowed");
        assertEquals(null, AdmissionDispatcher.readAtMost(new ByteArrayInputStream(new byte[1001]), 1000, deadline, now::get),
                "a byte more is not");
        assertEquals(0, AdmissionDispatcher.readAtMost(null, 1000, deadline, now::get).length, "no body at all");
    }

    @Test
    void aBodyThatFailsToArriveIsAnsweredWithWhatHappened() {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        AdmissionDispatcher clocked = AdmissionDispatcher.builder(AdmissionRoutes.of(Policies.class), bean -> policies,
                executor, new NoReads()).observer(counting)
                .budget(new DecodeBudget(2, DecodeBudget.DEFAULT_LARGE_CPU, now::get, () -> 0L)).build();
        java.io.InputStream trickle = new java.io.InputStream() { // a byte a second of the webhook's clock
            @Override
            public int read() {
                now.addAndGet(java.time.Duration.ofSeconds(1).toNanos());
                return ' ';
            }
        };
        assertAnswer(408, "The AdmissionReview did not arrive within the webhook's timeout of 1 s",
                clocked.handle("POST", WIDGETS, "application/json", trickle, true));
        assertAnswer(408, "the port's read timeout passed", dispatcher.handle("POST", WIDGETS, "application/json",
                failing(new java.net.SocketTimeoutException("Read timed out")), true));
        assertAnswer(400, "The AdmissionReview could not be read: connection reset", dispatcher.handle("POST", WIDGETS,
                "application/json", failing(new java.io.IOException("connection reset")), true));
    }

    private static java.io.InputStream failing(java.io.IOException failure) {
        return new java.io.InputStream() {
            @Override
            public int read() throws java.io.IOException {
                throw failure;
            }
        };
    }

    @Test
    void aRefusedClientCertificateIs403BeforeAnythingIsRead() {
        AdmissionDispatcher strict = AdmissionDispatcher.builder(AdmissionRoutes.of(Policies.class), bean -> policies,
                executor, new NoReads()).observer(counting).budget(unhurried())
                .clients(ClientTrust.refusing("no client CA could be read")).build();
        assertAnswer(403, "Client certificate refused: no client CA could be read", strict.handle("POST", WIDGETS, "application/json",
                failing(new java.io.IOException("the body must not be read")), true, null));
    }

    @Test
    void aReadThatTimedOutIsToldFromOtherFailures() {
        class AsyncTimeoutException extends java.io.IOException {
            private static final long serialVersionUID = 1L;
        }
        assertTrue(AdmissionDispatcher.timedOut(new java.net.SocketTimeoutException()));
        assertTrue(AdmissionDispatcher.timedOut(new java.io.IOException("read failed", new AsyncTimeoutException())));
        org.junit.jupiter.api.Assertions.assertFalse(AdmissionDispatcher.timedOut(new java.io.IOException("connection reset")));
    }

    @Test
    void malformedJsonIs400() {
        for (String bad : List.of("", "{", "nul", "[1,2]", "\"text\"", "{\"apiVersion\":NaN}", "{\"request\":{\"uid\":[}}",
                "[".repeat(100_000))) {
            assertAnswer(400, "Invalid or mismatched admission.k8s.io/v1 AdmissionReview",
                    dispatcher.handle("POST", WIDGETS, "application/json", body(bad), true));
        }
    }

    /** Bodies that end inside a member Mooring ignores: JSON-B's skipping loops forever on them (Parsson 1.1.x). */
    @Test
    void truncatedBodiesEndingInsideIgnoredMembersAre400() throws Throwable {
        for (String bad : List.of("{\"x\":[", "{\"request\":{\"x\":{", "{\"x\":{\"a\":1,", "{\"request\":{\"options\":{\"a\":[1,",
                "{\"apiVersion\":\"admission.k8s.io/v1\",\"request\":{\"requestKind\":{\"group\":\"\"")) {
            CpuBound.assertWithin(java.time.Duration.ofSeconds(5), () -> assertAnswer(400, "not JSON", post(WIDGETS, bad)), bad);
        }
    }

    /**
     * Every prefix of reviews as the API server sends them (with the members Mooring ignores:
     * requestKind, requestResource, options) is a 400 naming the problem; only the whole review
     * is answered 200.
     */
    @Test
    void everyPrefixOfRealReviewsIs400() throws Throwable {
        List<String> reviews = List.of(realistic("CREATE", widget("w", "green"), null),
                realistic("UPDATE", widget("w", "green"), widget("w", "blue")),
                realistic("CREATE", widget("w", "\\u00e9\\\"quoted\\\" \\ud83d\\ude00 caf\u00e9"), null));
        CpuBound.assertWithin(java.time.Duration.ofSeconds(60), () -> {
            for (String review : reviews) {
                assertEquals(200, post(WIDGETS, review).status(), review);
                for (int end = 0; end < review.length(); end++) {
                    AdmissionDispatcher.Answer answer = post(WIDGETS, review.substring(0, end));
                    assertEquals(400, answer.status(), review.substring(0, end) + " -> " + answer.body());
                }
            }
        }, "every prefix");
        assertEquals(reviews.size(), policies.seen.size(), "only the whole reviews reached the policy");
    }

    @Test
    void unbalancedAndTrailingDocumentsAre400() {
        String valid = review("CREATE", widget("w", "green"), null);
        for (String bad : List.of(valid + "}", valid + " {}", valid + "x", "]" + valid, valid.replaceFirst("\\}$", "]"),
                "{\"request\":]", "{\"a\" \"b\"}", "{\"a\":1,}", "[1,]")) {
            assertAnswer(400, "Invalid or mismatched admission.k8s.io/v1 AdmissionReview", post(WIDGETS, bad));
        }
        assertTrue(policies.seen.isEmpty());
    }

    @Test
    void eachLimitIsA400NamingIt() {
        // review, request and object are 3 levels: 97 more make the deepest document within the limit
        String deep = "{\"d\":".repeat(96) + "1" + "}".repeat(96);
        assertEquals(200, post(WIDGETS, review("CREATE", widget("w", "green").replace("\"spec\":", "\"deep\":" + deep
                + ",\"spec\":"), null)).status(), "nesting within the limit is read");
        assertAnswer(400, "nesting deeper than 100 levels", post(WIDGETS, review("CREATE", widget("w", "green")
                .replace("\"spec\":", "\"deep\":" + "[".repeat(100) + "]".repeat(100) + ",\"spec\":"), null)));
        assertAnswer(400, "nesting deeper than 100 levels", post(WIDGETS, "{\"request\":" + "[".repeat(200_000)));
        assertAnswer(400, "more than 100000 members in one object or array", post(WIDGETS,
                "{\"request\":[" + "0,".repeat(100_000) + "0]}"));
        StringBuilder wide = new StringBuilder("{\"request\":[");
        for (int i = 0; i < 11; i++) {
            wide.append(i == 0 ? "" : ",").append('[').append("0,".repeat(99_999)).append("0]");
        }
        assertAnswer(400, "more than 1000000 values in the document", post(WIDGETS, wide + "]}"));
        assertAnswer(400, "a string of more than 1572864 characters", post(WIDGETS, review("CREATE",
                widget("w", "x".repeat(1_572_865)), null)));
        assertAnswer(400, "a member name of more than 1572864 characters", post(WIDGETS, "{\"" + "k".repeat(1_572_865) + "\":1}"));
        assertAnswer(400, "a number of more than 100 characters", post(WIDGETS, review("CREATE",
                widget("w", "green").replace("\"size\":1", "\"size\":1" + "0".repeat(100)), null)));
        assertEquals(1, policies.seen.size(), "only the review within the limits reached the policy");
    }

    @Test
    void aMemberOfTheWrongTypeIs400NamingIt() {
        String valid = review("CREATE", widget("w", "green"), null);
        assertAnswer(400, "request.uid must be a string", post(WIDGETS, valid.replace("\"uid\":\"uid-1\"", "\"uid\":7")));
        assertAnswer(400, "request.dryRun must be a boolean", post(WIDGETS, valid.replace("\"dryRun\":true", "\"dryRun\":\"yes\"")));
        assertAnswer(400, "request.userInfo.groups must be an array of strings", post(WIDGETS,
                valid.replace("[\"devs\"]", "[1]")));
        assertAnswer(400, "request.object must be an object", post(WIDGETS, review("CREATE", "[]", null)));
        assertAnswer(400, "request must be an object", post(WIDGETS, "{\"apiVersion\":\"admission.k8s.io/v1\",\"request\":1}"));
        assertTrue(policies.seen.isEmpty());
    }

    /** Names that would address another API path than the object's are refused before any callback. */
    @Test
    void namesThatBreakKubernetesRulesAre400BeforeAnyCallback() {
        String valid = review("CREATE", widget("w", "green"), null);
        for (String namespace : List.of("../../../api/v1/namespaces/kube-system/secrets/leaky", "..", "%2e%2e", "a/b", "a?b",
                "a#b", "Team-A", "")) {
            AdmissionDispatcher.Answer answer = post(WIDGETS, valid.replace("\"namespace\":\"team-a\"",
                    "\"namespace\":" + Json.createValue(namespace)));
            if (namespace.isEmpty()) {
                assertEquals(200, answer.status(), "no namespace: a cluster-scoped request");
                continue;
            }
            assertAnswer(400, "request.namespace '" + namespace + "' is not a namespace", answer);
            assertEquals("uid-1", json(answer).getString("uid", "uid-1"), answer.body());
        }
        for (String name : List.of("..", ".", "%2e%2e", "a/b", "../secrets/x", "a\u0000b")) {
            assertAnswer(400, "request.name", post(WIDGETS, valid.replace("\"name\":\"w\",\"namespace\"",
                    "\"name\":" + Json.createValue(name) + ",\"namespace\"")));
        }
        assertAnswer(400, "request.subResource '../status' is not a resource name", post(WIDGETS,
                valid.replace("\"operation\"", "\"subResource\":\"../status\",\"operation\"")));
        assertAnswer(400, "request.kind.kind 'Widget/../x' is not a kind", post(WIDGETS,
                valid.replace("\"kind\":\"Widget\"},", "\"kind\":\"Widget/../x\"},")));
        assertAnswer(400, "request.resource.resource 'widgets?x' is not a resource name", post(WIDGETS,
                valid.replace("\"resource\":\"widgets\"", "\"resource\":\"widgets?x\"")));
        assertEquals(1, policies.seen.size(), "only the cluster-scoped request reached the policy");
    }

    @Test
    void aReviewWithoutRequestOrUidIs400() {
        assertAnswer(400, "expected apiVersion admission.k8s.io/v1 and kind AdmissionReview",
                post(WIDGETS, "{\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":\"AdmissionReview\",\"request\":{}}"));
        assertAnswer(400, "the review has no request", post(WIDGETS, "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}"));
        assertAnswer(400, "request.uid is missing", post(WIDGETS,
                "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"operation\":\"CREATE\"}}"));
    }

    /** Routes of several beans are served together: two at one path are refused when the dispatcher is made, naming both. */
    @Test
    void twoRoutesAtOnePathAreRefusedWhenTheDispatcherIsMade() {
        List<AdmissionRoute> twice = new ArrayList<>(AdmissionRoutes.of(Policies.class));
        twice.addAll(AdmissionRoutes.of(Policies.class));
        IllegalArgumentException clash = assertThrows(IllegalArgumentException.class, () -> AdmissionDispatcher.builder(twice,
                bean -> policies, executor, new NoReads()).observer(counting).budget(unhurried()).build());
        assertTrue(clash.getMessage().contains("are both served at "), clash.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WebhookConfigurations.of(twice, List.of(), "operators",
                WebhookConfigurationsTest.TARGET), "nor are they registered");
    }

    @Test
    void aRequestTheRouteDoesNotAdmitIs400WithTheUid() {
        String wrongOperation = review("DELETE", null, widget("w", "green"));
        AdmissionDispatcher.Answer answer = post(WIDGETS, wrongOperation);
        assertAnswer(400, "this webhook admits [CREATE, UPDATE], not DELETE", answer);
        assertEquals("uid-1", json(answer).getString("uid"));
        assertAnswer(400, "request.kind", post(WIDGETS, review("CREATE", widget("w", "green"), null).replace("\"Widget\"}",
                "\"Gadget\"}")));
        assertAnswer(400, "request.resource", post(WIDGETS, review("CREATE", widget("w", "green"), null)
                .replace("\"resource\":\"widgets\"", "\"resource\":\"gadgets\"")));
        assertAnswer(400, "request.subResource", post(WIDGETS, review("CREATE", widget("w", "green"), null)
                .replace("\"operation\"", "\"subResource\":\"status\",\"operation\"")));
        String green = review("CREATE", widget("w", "green"), null);
        // every part of the kind and of the resource is compared, and the message names both sides
        assertAnswer(400, "request.kind other.com/v1 Widget is not example.com/v1 Widget, the kind this webhook admits",
                post(WIDGETS, green.replace("\"group\":\"example.com\",\"version\":\"v1\",\"kind\"",
                        "\"group\":\"other.com\",\"version\":\"v1\",\"kind\"")));
        assertAnswer(400, "request.kind example.com/v2 Widget is not", post(WIDGETS, green.replace(
                "\"version\":\"v1\",\"kind\":\"Widget\"", "\"version\":\"v2\",\"kind\":\"Widget\"")));
        assertAnswer(400, "request.resource other.com/v1 widgets is not example.com/v1 widgets", post(WIDGETS, green.replace(
                "\"group\":\"example.com\",\"version\":\"v1\",\"resource\"", "\"group\":\"other.com\",\"version\":\"v1\",\"resource\"")));
        assertAnswer(400, "request.resource example.com/v2 widgets is not", post(WIDGETS, green.replace(
                "\"version\":\"v1\",\"resource\":\"widgets\"", "\"version\":\"v2\",\"resource\":\"widgets\"")));
        assertAnswer(400, "request.resource v1 widgets is not example.com/v1 widgets", post(WIDGETS, green.replace(
                "\"group\":\"example.com\",\"version\":\"v1\",\"resource\"", "\"group\":\"\",\"version\":\"v1\",\"resource\"")));
        assertAnswer(400, "request.resource (missing) is not", post(WIDGETS, green.replace(
                "\"resource\":{\"group\":\"example.com\",\"version\":\"v1\",\"resource\":\"widgets\"},", "")));
        assertAnswer(400, "a CREATE request has an object and no oldObject", post(WIDGETS, review("CREATE", null, null)));
        assertAnswer(400, "a UPDATE request has an object and an oldObject", post(WIDGETS, review("UPDATE", widget("w", "a"), null)));
        String deployment = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"}}";
        assertAnswer(400, "a DELETE request has an oldObject and no object", post(DEPLOYMENTS, review("DELETE", deployment, deployment)
                .replace("\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Widget\"", "\"group\":\"apps\",\"version\":\"v1\",\"kind\":\"Deployment\"")
                .replace("\"group\":\"example.com\",\"version\":\"v1\",\"resource\":\"widgets\"",
                        "\"group\":\"apps\",\"version\":\"v1\",\"resource\":\"deployments\"")));
        assertAnswer(400, "request.operation 'PATCH' is not CREATE", post(WIDGETS, review("PATCH", widget("w", "a"), null)));
        assertAnswer(400, "request.object is 'v1' 'ConfigMap'", post(WIDGETS, review("CREATE",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"}}", null)));
        assertTrue(policies.seen.isEmpty());
    }

    // ---- answers

    @Test
    void anAllowedRequestEchoesTheUid() {
        JsonObject response = response(post(WIDGETS, review("CREATE", widget("w", "green"), null)));
        assertEquals("uid-1", response.getString("uid"));
        assertTrue(response.getBoolean("allowed"));
        assertFalse(response.containsKey("patch"));
        AdmissionRequest<?> seen = policies.seen.get(0);
        assertEquals(Operation.CREATE, seen.operation());
        assertEquals("w", seen.name());
        assertEquals("team-a", seen.namespace());
        assertEquals("alice", seen.userInfo().username());
        assertEquals(List.of("devs"), seen.userInfo().groups());
        assertTrue(seen.dryRun());
        assertTrue(seen.oldObject().isEmpty());
        post(WIDGETS, review("CREATE", widget("w", "green"), null).replace("\"dryRun\":true", "\"dryRun\":false"));
        assertFalse(policies.seen.get(1).dryRun(), "a request that is not a dry run: a policy may act on it");
        post(WIDGETS, review("CREATE", widget("w", "green"), null).replace(",\"dryRun\":true", ""));
        assertFalse(policies.seen.get(2).dryRun(), "no dryRun member: not a dry run");
    }

    @Test
    void aDenialCarriesCodeReasonAndMessage() {
        JsonObject denied = response(post(WIDGETS, review("CREATE", widget("w", "red"), null)));
        assertFalse(denied.getBoolean("allowed"));
        assertEquals(403, denied.getJsonObject("status").getInt("code"));
        assertEquals("Forbidden", denied.getJsonObject("status").getString("reason"));
        assertEquals("red is not allowed", denied.getJsonObject("status").getString("message"));
        JsonObject invalid = response(post(WIDGETS, review("CREATE", widget("w", "invalid"), null)));
        assertEquals(422, invalid.getJsonObject("status").getInt("code"));
        assertEquals("Invalid", invalid.getJsonObject("status").getString("reason"));
    }

    @Test
    void anUnexpectedExceptionIsAGenericDenialThatDoesNotEchoIt() {
        AdmissionDispatcher.Answer answer = post(WIDGETS, review("CREATE", widget("w", "boom"), null));
        assertEquals(200, answer.status());
        JsonObject response = response(answer);
        assertEquals("uid-1", response.getString("uid"));
        assertFalse(response.getBoolean("allowed"));
        assertEquals(500, response.getJsonObject("status").getInt("code"));
        assertFalse(answer.body().contains("secret internals"), answer.body());
    }

    @Test
    void aCallOverItsTimeoutIs504() {
        AdmissionDispatcher timed = AdmissionDispatcher.builder(AdmissionRoutes.of(Policies.class), bean -> policies, executor,
                new NoReads()).observer(counting)
                .budget(new DecodeBudget(2, DecodeBudget.DEFAULT_LARGE_CPU, policies.webhookClock::get, () -> 0L)).build();
        AdmissionDispatcher.Answer answer = timed.handle("POST", WIDGETS, "application/json",
                body(review("CREATE", widget("w", "slow"), null)), true);
        assertAnswer(504, "Admission webhook timed out", answer);
        assertEquals("uid-1", json(answer).getString("uid"));
        policies.webhookClock.set(0);
        assertAnswer(504, "Admission webhook timed out", timed.handle("POST", WIDGETS, "application/json",
                body(review("CREATE", widget("w", "late"), null)), true)); // at the deadline itself: no time is left
    }

    /** A call beyond the admission pool's threads and queue is refused at once, not queued without bound. */
    @Test
    void aCallThePoolRefusesIs503() {
        java.util.concurrent.ThreadPoolExecutor full = new java.util.concurrent.ThreadPoolExecutor(1, 1, 1,
                java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.SynchronousQueue<>());
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        full.submit(() -> {
            release.await();
            return null;
        });
        try {
            AdmissionDispatcher busy = AdmissionDispatcher.builder(AdmissionRoutes.of(Policies.class), bean -> policies, full,
                    new NoReads()).observer(counting).budget(unhurried()).build();
            AdmissionDispatcher.Answer answer = busy.handle("POST", WIDGETS, "application/json",
                    body(review("CREATE", widget("w", "green"), null)), true);
            assertAnswer(503, "every admission thread is busy", answer);
            assertEquals("uid-1", json(answer).getString("uid"));
        } finally {
            release.countDown();
            full.shutdown();
        }
    }

    @Test
    void warningsReachTheResponse() {
        JsonObject response = response(post(WIDGETS, review("CREATE", widget("w", "warn"), null)));
        assertTrue(response.getBoolean("allowed"));
        assertEquals(List.of("warned about warn"), response.getJsonArray("warnings").getValuesAs(jakarta.json.JsonString::getString));
    }

    @Test
    void anObjectTheModelCannotDecodeIsDenied422() {
        JsonObject response = response(post(WIDGETS, review("CREATE",
                "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},\"spec\":{\"size\":\"huge\"}}", null)));
        assertFalse(response.getBoolean("allowed"));
        assertEquals(422, response.getJsonObject("status").getInt("code"));
        assertTrue(response.getJsonObject("status").getString("message").startsWith("Invalid Widget in request.object"));
    }

    /** client-java's decoding errors quote the document or the value: the answer says what is wrong without them. */
    @Test
    void aDecodingFailureNamesTheProblemWithoutTheValues() {
        for (String spec : List.of("{\"size\":\"SECRET-MARKER\"}", "{\"size\":[\"SECRET-MARKER\"]}")) {
            JsonObject response = response(post(WIDGETS, review("CREATE", "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\","
                    + "\"metadata\":{\"name\":\"w\"},\"spec\":" + spec + "}", null)));
            String message = response.getJsonObject("status").getString("message");
            assertEquals(422, response.getJsonObject("status").getInt("code"));
            assertFalse(message.contains("SECRET-MARKER"), message);
            assertTrue(message.startsWith("Invalid Widget in request.object: "), message);
        }
    }

    @Test
    void aMutatorAnswersWithTheJsonPatchToItsEditKeepingUnknownFields() {
        String sent = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\",\"namespace\":\"team-a\"},"
                + "\"spec\":{\"size\":2,\"color\":\"green\",\"undeclared\":{\"keep\":[1,2]}},\"extra\":true}";
        JsonObject response = response(post(MUTATE_WIDGETS, review("CREATE", sent, null)));
        assertTrue(response.getBoolean("allowed"));
        assertEquals("JSONPatch", response.getString("patchType"));
        JsonArray patch = parse(new String(Base64.getDecoder().decode(response.getString("patch")), StandardCharsets.UTF_8)).asJsonArray();
        JsonValue patched = Json.createPatch(patch).apply(parse(sent).asJsonObject());
        JsonValue expected = parse(sent.replace("\"green\"", "\"blue\"").replace("\"namespace\":\"team-a\"}",
                "\"namespace\":\"team-a\",\"labels\":{\"painted\":\"true\"}}"));
        assertEquals(expected, patched);
    }

    @Test
    void aMutatorWithoutChangesAnswersWithoutPatch() {
        JsonObject unchanged = response(post(MUTATE_WIDGETS, review("CREATE", widget("w", "blue"), null)));
        assertTrue(unchanged.getBoolean("allowed"));
        assertFalse(unchanged.containsKey("patch"));
        JsonObject none = response(post(MUTATE_WIDGETS, review("CREATE", widget("none", "blue"), null)));
        assertTrue(none.getBoolean("allowed"));
        assertNull(none.get("patchType"));
    }

    @Test
    void aDeleteCarriesTheOldObjectOnly() {
        String deployment = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\",\"namespace\":\"team-a\"}}";
        String review = review("DELETE", null, deployment).replace("\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Widget\"",
                "\"group\":\"apps\",\"version\":\"v1\",\"kind\":\"Deployment\"").replace(
                "\"group\":\"example.com\",\"version\":\"v1\",\"resource\":\"widgets\"", "\"group\":\"apps\",\"version\":\"v1\",\"resource\":\"deployments\"");
        JsonObject response = response(post(DEPLOYMENTS, review));
        assertEquals("deleting web", response.getJsonObject("status").getString("message"));
    }

    @Test
    void aScaleRequestIsTypedAsScaleForTheDeploymentsSubresource() {
        String scale = "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\"web\",\"namespace\":\"team-a\"},"
                + "\"spec\":{\"replicas\":%d}}";
        String review = review("UPDATE", String.format(scale, 5), String.format(scale, 1))
                .replace("\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Widget\"", "\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\"")
                .replace("\"group\":\"example.com\",\"version\":\"v1\",\"resource\":\"widgets\"", "\"group\":\"apps\",\"version\":\"v1\",\"resource\":\"deployments\"")
                .replace("\"operation\"", "\"subResource\":\"scale\",\"operation\"");
        JsonObject response = response(post(SCALE, review));
        assertEquals("too many: 5", response.getJsonObject("status").getString("message"));
        V1Scale old = (V1Scale) policies.seen.get(0).oldObject().orElseThrow();
        assertEquals(1, old.getSpec().getReplicas());
        assertEquals("scale", policies.seen.get(0).subresource());
    }

    @Test
    void everyAnswerOfAKnownRouteIsObservedUnknownPathsAreNot() {
        post(WIDGETS, review("CREATE", widget("w", "green"), null));
        post(WIDGETS, review("CREATE", widget("w", "red"), null));
        post(WIDGETS, "{");
        dispatcher.handle("POST", "/unknown", "application/json", body("{}"), true);
        assertEquals(java.util.Map.of("check 200", 2, "check 400", 1), counting.answers);
        assertEquals(1, counting.denials.get());
        assertEquals(0, counting.inFlight.get());
    }

    @Test
    void aConnectCarriesItsOptionsAsADynamicObject() {
        String review = review("CONNECT", "{\"apiVersion\":\"v1\",\"kind\":\"PodExecOptions\",\"command\":[\"sh\"],\"stdin\":true}", null)
                .replace("\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Widget\"", "\"group\":\"\",\"version\":\"v1\",\"kind\":\"PodExecOptions\"")
                .replace("\"group\":\"example.com\",\"version\":\"v1\",\"resource\":\"widgets\"", "\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"")
                .replace("\"operation\"", "\"subResource\":\"exec\",\"operation\"");
        JsonObject response = response(post("/validate/core/v1/pods/no-exec", review));
        assertEquals("no shells in w", response.getJsonObject("status").getString("message"));
        assertEquals(Operation.CONNECT, policies.seen.get(0).operation());
    }

    // ---- helpers

    private AdmissionDispatcher.Answer post(String path, String json) {
        return dispatcher.handle("POST", path, "application/json", body(json), true);
    }

    static String widget(String name, String color) {
        return "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"team-a\"},\"spec\":{\"size\":1,\"color\":\"" + color + "\"}}";
    }

    static String review(String operation, String object, String oldObject) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"uid-1\","
                + "\"kind\":{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Widget\"},"
                + "\"resource\":{\"group\":\"example.com\",\"version\":\"v1\",\"resource\":\"widgets\"},"
                + "\"name\":\"w\",\"namespace\":\"team-a\",\"operation\":\"" + operation + "\","
                + "\"userInfo\":{\"username\":\"alice\",\"groups\":[\"devs\"]},\"dryRun\":true"
                + (object == null ? "" : ",\"object\":" + object) + (oldObject == null ? "" : ",\"oldObject\":" + oldObject) + "}}";
    }

    /** A review with everything the API server sends, including the members Mooring does not read. */
    static String realistic(String operation, String object, String oldObject) {
        return review(operation, object, oldObject).replace("\"resource\":\"widgets\"},", "\"resource\":\"widgets\"},"
                + "\"requestKind\":{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Widget\"},"
                + "\"requestResource\":{\"group\":\"example.com\",\"version\":\"v1\",\"resource\":\"widgets\"},").replace("\"dryRun\":true", "\"dryRun\":false,\"options\":{"
                + "\"kind\":\"CreateOptions\",\"apiVersion\":\"meta.k8s.io/v1\",\"fieldManager\":\"kubectl-client-side-apply\","
                + "\"fieldValidation\":\"Strict\"},\"userInfo2\":{\"extra\":{\"a\":[\"b\"]}}");
    }

    private static ByteArrayInputStream body(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertAnswer(int status, String message, AdmissionDispatcher.Answer answer) {
        assertEquals(status, answer.status(), answer.body());
        assertTrue(json(answer).getString("message").contains(message), answer.body());
    }

    private static JsonObject response(AdmissionDispatcher.Answer answer) {
        assertEquals(200, answer.status(), answer.body());
        JsonObject review = json(answer);
        assertEquals("admission.k8s.io/v1", review.getString("apiVersion"));
        assertEquals("AdmissionReview", review.getString("kind"));
        return review.getJsonObject("response");
    }

    private static JsonObject json(AdmissionDispatcher.Answer answer) {
        return parse(answer.body()).asJsonObject();
    }

    static JsonValue parse(String text) {
        return Json.createReader(new StringReader(text)).readValue();
    }

    /** Counts answers per route and status, as the metrics do. */
    static class Counting implements AdmissionDispatcher.Observer {
        final java.util.Map<String, Integer> answers = new java.util.concurrent.ConcurrentHashMap<>();
        final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger denials = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public void started(AdmissionRoute route) {
            inFlight.incrementAndGet();
        }

        @Override
        public void answered(AdmissionRoute route, int status, boolean denied, java.time.Duration duration) {
            inFlight.decrementAndGet();
            answers.merge(route.method().getName() + " " + status, 1, Integer::sum);
            if (denied) {
                denials.incrementAndGet();
            }
        }
    }

    /** The policies here read nothing. */
    static final class NoReads implements AdmissionReads {
        @Override
        public <K extends KubernetesObject> Cache<K> cached(Class<?> beanClass, Class<K> kind) {
            throw new IllegalArgumentException("no caches in this test");
        }

        @Override
        public ResourceClient client(String namespace) {
            throw new IllegalStateException("no client in this test");
        }
    }
}
