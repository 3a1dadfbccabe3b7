package dev.mooring.engine.certificates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.engine.informer.Informer;
import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The self-managed certificate's convergence over a scripted store (objects kept by path, each
 * write a new resourceVersion and a watch event): what it writes when, what it serves, and that a
 * check with nothing to do sends no request. What the API server decides is AdmissionIT's and
 * PodInstallIT's.
 */
class SelfManagedCertificatesTest {

    private static final String SECRET = "/api/v1/namespaces/ops/secrets/hooks-tls";
    private static final String VALIDATING = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/hooks.ops.svc";
    private static final String ACCOUNT = "/api/v1/namespaces/ops/serviceaccounts/hooks";

    @TempDir
    Path files;
    private final Store store = new Store();
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-07T00:00:00Z"));
    private final List<Thread> loops = new ArrayList<>();
    private SelfManagedCertificates certificates;

    @AfterEach
    void stop() throws InterruptedException {
        java.util.logging.Logger.getLogger(SelfManagedCertificates.class.getName()).removeHandler(logs);
        if (certificates != null) {
            certificates.informers().forEach(Informer::stop);
        }
        for (Thread loop : loops) {
            loop.join(10_000);
        }
    }

    /** What the certificates' logger said, from the first start on. */
    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final java.util.logging.Handler logs = new java.util.logging.Handler() {
        @Override
        public void publish(java.util.logging.LogRecord record) {
            logged.add(record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private void start(String serviceAccount) {
        start(serviceAccount, true, false);
    }

    private void start(String serviceAccount, boolean validating, boolean mutating) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(SelfManagedCertificates.class.getName());
        logger.removeHandler(logs);
        logger.addHandler(logs);
        if (certificates != null) {
            certificates.informers().forEach(Informer::stop);
        }
        ApiClient client = new ApiClient().setBasePath("http://api.invalid");
        client.setHttpClient(new OkHttpClient.Builder().addInterceptor(chain -> store.answer(chain.request())).build());
        KubeHttp http = new KubeHttp(client);
        certificates = new SelfManagedCertificates(http, http, CertificateSettings.builder("ops", "hooks-tls", "hooks", "hooks.ops.svc")
                .serviceAccount(serviceAccount).servingValidity(Duration.ofDays(30)).caValidity(Duration.ofDays(365))
                .validating(validating).mutating(mutating).build(), files.resolve("tls.crt"),
                files.resolve("tls.key"),
                now::get, Duration.ofSeconds(1));
        for (Informer<?> informer : certificates.informers()) {
            Thread loop = new Thread(informer::run, "informer-" + informer.describe());
            loop.start();
            loops.add(loop);
        }
    }

    /** Checks until {@code done}, as the schedule would. */
    private void checkUntil(String what, BooleanSupplier done) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within 30 s: " + what + "; " + certificates.detail() + "; " + store.writes);
            }
            certificates.check();
            Thread.sleep(20);
        }
    }

    private static String configuration(String caBundle) {
        return "{\"apiVersion\":\"admissionregistration.k8s.io/v1\",\"kind\":\"ValidatingWebhookConfiguration\",\"metadata\":{\"name\":"
                + "\"hooks.ops.svc\",\"uid\":\"u-conf\"},\"webhooks\":[{\"name\":\"v.hooks.ops.svc\",\"admissionReviewVersions\":[\"v1\"],"
                + "\"sideEffects\":\"None\",\"clientConfig\":{\"service\":{\"name\":\"hooks\",\"namespace\":\"ops\",\"path\":\"/v\"}"
                + (caBundle == null ? "" : ",\"caBundle\":\"" + caBundle + "\"") + "}},{\"name\":\"other.example.com\","
                + "\"admissionReviewVersions\":[\"v1\"],\"sideEffects\":\"None\",\"clientConfig\":{\"url\":\"https://other.example.com/v\"}}]}";
    }

    @Test
    void theFirstCheckMakesTheSecretOwnedByTheServiceAccountThenTheBundleAndServesOnceTheBundleIsStored() throws Exception {
        store.put(ACCOUNT, "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"hooks\",\"namespace\":\"ops\","
                + "\"uid\":\"u-account\"}}");
        store.put(VALIDATING, configuration(null));
        start("hooks");
        checkUntil("serving", certificates::written);

        assertEquals(List.of("POST " + SECRET.substring(0, SECRET.lastIndexOf('/')), "PUT " + VALIDATING), store.writes,
                "the Secret made, then the bundle written; served once the watch showed it");
        JsonObject secret = store.get(SECRET);
        assertEquals("kubernetes.io/tls", secret.get("type").getAsString());
        assertTrue(secret.getAsJsonObject("metadata").getAsJsonArray("ownerReferences").toString()
                .contains("\"kind\":\"ServiceAccount\",\"name\":\"hooks\",\"uid\":\"u-account\""), secret.toString());
        JsonObject stored = store.get(VALIDATING);
        String bundle = stored.getAsJsonArray("webhooks").get(0).getAsJsonObject().getAsJsonObject("clientConfig").get("caBundle").getAsString();
        assertEquals(secret.getAsJsonObject("data").get("ca.crt").getAsString(), bundle, "the configuration trusts the Secret's CA");
        assertFalse(stored.getAsJsonArray("webhooks").get(1).getAsJsonObject().getAsJsonObject("clientConfig").has("caBundle"),
                "a webhook of another service is left alone");
        assertTrue(Files.readString(files.resolve("tls.crt")).contains("BEGIN CERTIFICATE"));
        assertTrue(Files.readString(files.resolve("tls.key")).contains("PRIVATE KEY"));
        assertTrue(certificates.detail().startsWith("self-managed: CN=hooks.ops.svc until "), certificates.detail());

        int requests = store.requests.size();
        for (int i = 0; i < 5; i++) {
            certificates.check();
        }
        assertEquals(requests, store.requests.size(), "checks with nothing to do send nothing");
    }

    @Test
    void aCheckWaitsForTheWatchToShowItsWritesInsteadOfWritingAgain() throws Exception {
        store.put(VALIDATING, configuration(null));
        start(null);
        checkUntil("the informers synced", () -> certificates.informers().stream().allMatch(Informer::hasSynced));
        store.watchesHeld = true;
        checkUntil("the Secret and the bundle written", () -> store.writes.size() >= 2);
        for (int i = 0; i < 5; i++) {
            certificates.check();
        }
        assertEquals(List.of("POST " + SECRET.substring(0, SECRET.lastIndexOf('/')), "PUT " + VALIDATING), store.writes,
                "a cache without the Secret would make another CA and write again: " + certificates.detail());
        assertTrue(certificates.detail().contains("to show its write"), certificates.detail());
        assertFalse(certificates.written(), "nothing served before the bundle is seen stored");

        store.watchesHeld = false;
        checkUntil("serving", certificates::written);
        assertEquals(2, store.writes.size(), "and none after: " + store.writes);
    }

    @Test
    void aDeletedSecretIsMadeAgainWithTheFormerCaStillTrusted() throws Exception {
        store.put(VALIDATING, configuration(null));
        start(null);
        checkUntil("serving", certificates::written);
        String firstCa = store.get(SECRET).getAsJsonObject("data").get("ca.crt").getAsString();
        assertFalse(store.get(SECRET).getAsJsonObject("metadata").toString().contains("ServiceAccount"), "no ServiceAccount named: no owner");

        store.writes.clear();
        store.delete(SECRET);
        checkUntil("a new Secret", () -> store.writes.size() >= 2);
        String secondCa = store.get(SECRET).getAsJsonObject("data").get("ca.crt").getAsString();
        assertFalse(firstCa.equals(secondCa), "a new CA");
        String bundle = new String(java.util.Base64.getDecoder().decode(store.get(VALIDATING).getAsJsonArray("webhooks").get(0)
                .getAsJsonObject().getAsJsonObject("clientConfig").get("caBundle").getAsString()));
        assertEquals(2, bundle.split("BEGIN CERTIFICATE").length - 1, "both CAs in the bundle: " + bundle);
    }

    @Test
    void aRefusedWriteIsReportedOnceAndRetriedOnTheNextCheck() throws Exception {
        store.put(VALIDATING, configuration(null));
        store.refuse("POST", 403);
        start(null);
        checkUntil("the refusal reported", () -> certificates.detail().contains("403"));
        assertFalse(certificates.written());
        store.refuse("POST", 0);
        checkUntil("serving after the refusal ends", certificates::written);
    }

    @Test
    void aMutatingConfigurationGetsTheBundleToo() throws Exception {
        String mutating = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/hooks.ops.svc";
        store.put(mutating, configuration(null).replace("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"));
        start(null, false, true);
        checkUntil("serving", certificates::written);
        assertEquals(List.of("POST " + SECRET.substring(0, SECRET.lastIndexOf('/')), "PUT " + mutating), store.writes);
        assertEquals(store.get(SECRET).getAsJsonObject("data").get("ca.crt").getAsString(), store.get(mutating).getAsJsonArray("webhooks")
                .get(0).getAsJsonObject().getAsJsonObject("clientConfig").get("caBundle").getAsString());
        assertEquals(List.of("Secret", "MutatingWebhookConfiguration"), certificates.informers().stream()
                .map(informer -> informer.describe().split(" ")[0]).toList(), "no validating configuration watched");
    }

    @Test
    void aSecretWrittenFirstByAnotherReplicaIsReadAgainNotReported() throws Exception {
        store.put(VALIDATING, configuration(null));
        store.refuse("POST", 409);
        start(null);
        checkUntil("the lost race noted", () -> certificates.detail().contains("another replica wrote first"));
        assertTrue(logged.stream().noneMatch(message -> message.contains("cannot be brought up to date")), logged.toString());
        store.refuse("POST", 0);
        checkUntil("serving after reading again", certificates::written);
    }

    @Test
    void aDueServingCertificateIsRenewedUnderTheSameCaAndADueCaIsReplaced() throws Exception {
        store.put(VALIDATING, configuration(null));
        start(null);
        checkUntil("serving", certificates::written);
        assertTrue(logged.stream().anyMatch(message -> message.startsWith("Webhook certificates made: a new CA and a serving certificate for ")
                && message.endsWith(" in Secret ops/hooks-tls")), logged.toString());
        JsonObject first = store.get(SECRET).getAsJsonObject("data");
        String servedFirst = Files.readString(files.resolve("tls.crt"));
        store.writes.clear();
        certificates.check();
        now.set(now.get().plus(Duration.ofDays(19)));
        certificates.check();
        assertEquals(List.of(), store.writes, "not due before two thirds of the serving certificate's 30 days");

        now.set(now.get().plus(Duration.ofDays(2)));
        checkUntil("a new serving certificate", () -> !store.get(SECRET).getAsJsonObject("data").get("tls.crt").equals(first.get("tls.crt")));
        assertEquals(first.get("ca.crt"), store.get(SECRET).getAsJsonObject("data").get("ca.crt"), "the same CA");
        checkUntil("the new certificate served", () -> {
            try {
                return !Files.readString(files.resolve("tls.crt")).equals(servedFirst);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertTrue(logged.stream().anyMatch(message -> message.startsWith("Webhook serving certificate for ")
                && message.endsWith(" renewed in Secret ops/hooks-tls")), logged.toString());

        now.set(now.get().plus(Duration.ofDays(250))); // past two thirds of the CA's 365 days
        checkUntil("a new CA", () -> !store.get(SECRET).getAsJsonObject("data").get("ca.crt").equals(first.get("ca.crt")));
        assertTrue(logged.stream().anyMatch(message -> message.startsWith("Webhook CA renewed, with a serving certificate for ")
                && message.endsWith(" (the previous CA stays trusted)")), logged.toString());
    }

    @Test
    void aSecretMadeWithoutItsOwnerGetsTheServiceAccountAsOwnerKeepingItsCa() throws Exception {
        store.put(VALIDATING, configuration(null));
        start(null);
        checkUntil("serving", certificates::written);
        String ca = store.get(SECRET).getAsJsonObject("data").get("ca.crt").getAsString();
        store.put(ACCOUNT, "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"hooks\",\"namespace\":\"ops\","
                + "\"uid\":\"u-account\"}}");
        store.writes.clear();
        start("hooks");
        checkUntil("the owner written", () -> store.get(SECRET).getAsJsonObject("metadata").toString().contains("u-account"));
        assertEquals(List.of("PUT " + SECRET), store.writes);
        assertTrue(store.get(SECRET).getAsJsonObject("metadata").getAsJsonArray("ownerReferences").toString().contains("u-account"));
        assertEquals(ca, store.get(SECRET).getAsJsonObject("data").get("ca.crt").getAsString(), "the CA kept");
        int requests = store.writes.size();
        for (int i = 0; i < 3; i++) {
            certificates.check();
        }
        assertEquals(requests, store.writes.size(), "owned now: nothing more to write");
    }

    /** Objects by path; a write stores the body with a new resourceVersion and queues a watch event for its collection. */
    private static final class Store {
        final Map<String, JsonObject> objects = new LinkedHashMap<>();
        final List<String> writes = new CopyOnWriteArrayList<>();
        final List<String> requests = new CopyOnWriteArrayList<>();
        final List<String[]> events = new ArrayList<>(); // {collection, version, event}
        int version = 1;
        String refusedMethod;
        int refusedCode;
        /** While true, watches deliver nothing: a watch that lags behind the writes. */
        volatile boolean watchesHeld;

        synchronized void put(String path, String json) {
            JsonObject object = JsonParser.parseString(json).getAsJsonObject();
            stored(path, object, objects.containsKey(path) ? "MODIFIED" : "ADDED");
        }

        synchronized JsonObject get(String path) {
            return objects.get(path).deepCopy();
        }

        synchronized void delete(String path) {
            JsonObject gone = objects.remove(path);
            version++;
            gone.getAsJsonObject("metadata").addProperty("resourceVersion", Integer.toString(version));
            events.add(new String[] {collection(path), Integer.toString(version), "{\"type\":\"DELETED\",\"object\":" + gone + "}"});
            notifyAll();
        }

        synchronized void refuse(String method, int code) {
            refusedMethod = method;
            refusedCode = code;
        }

        private void stored(String path, JsonObject object, String type) {
            version++;
            object.getAsJsonObject("metadata").addProperty("resourceVersion", Integer.toString(version));
            objects.put(path, object);
            events.add(new String[] {collection(path), Integer.toString(version), "{\"type\":\"" + type + "\",\"object\":" + object + "}"});
            notifyAll();
        }

        private static String collection(String path) {
            return path.substring(0, path.lastIndexOf('/'));
        }

        Response answer(Request request) throws java.io.IOException {
            String path = request.url().encodedPath();
            String body = null;
            if (request.body() != null) {
                okio.Buffer buffer = new okio.Buffer();
                request.body().writeTo(buffer);
                body = buffer.readUtf8();
            }
            synchronized (this) {
                requests.add(request.method() + " " + path);
                if (request.method().equals(refusedMethod) && refusedCode != 0) {
                    return respond(request, refusedCode, "{\"kind\":\"Status\",\"code\":" + refusedCode + ",\"message\":\"scripted "
                            + refusedCode + "\"}");
                }
                switch (request.method()) {
                    case "POST" -> {
                        JsonObject object = JsonParser.parseString(body).getAsJsonObject();
                        String name = object.getAsJsonObject("metadata").get("name").getAsString();
                        writes.add("POST " + path);
                        object.getAsJsonObject("metadata").addProperty("uid", "u-" + name);
                        stored(path + "/" + name, object, "ADDED");
                        return respond(request, 201, object.toString());
                    }
                    case "PUT" -> {
                        writes.add("PUT " + path);
                        JsonObject object = JsonParser.parseString(body).getAsJsonObject();
                        stored(path, object, "MODIFIED");
                        return respond(request, 200, object.toString());
                    }
                    default -> {
                    }
                }
                if ("true".equals(request.url().queryParameter("watch"))) {
                    long since = Long.parseLong(request.url().queryParameter("resourceVersion"));
                    long end = System.currentTimeMillis() + 200;
                    List<String> found = new ArrayList<>();
                    while (found.isEmpty() && System.currentTimeMillis() < end) {
                        for (String[] event : watchesHeld ? List.<String[]>of() : events) {
                            if (event[0].equals(path) && Long.parseLong(event[1]) > since) {
                                found.add(event[2]);
                            }
                        }
                        if (found.isEmpty()) {
                            try {
                                wait(50);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                break;
                            }
                        }
                    }
                    return respond(request, 200, String.join("\n", found) + (found.isEmpty() ? "" : "\n"));
                }
                if (objects.containsKey(path)) {
                    return respond(request, 200, objects.get(path).toString());
                }
                if (path.endsWith("s") && !path.endsWith("/" + path.substring(path.lastIndexOf('/') + 1) + "/")) {
                    List<String> items = new ArrayList<>();
                    objects.forEach((key, object) -> {
                        if (collection(key).equals(path)) {
                            items.add(object.toString());
                        }
                    });
                    if (!items.isEmpty() || isCollection(path)) {
                        return respond(request, 200, "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"" + version
                                + "\"},\"items\":[" + String.join(",", items) + "]}");
                    }
                }
                return respond(request, 404, "{\"kind\":\"Status\",\"code\":404,\"reason\":\"NotFound\"}");
            }
        }

        private static boolean isCollection(String path) {
            return path.endsWith("/secrets") || path.endsWith("/validatingwebhookconfigurations")
                    || path.endsWith("/mutatingwebhookconfigurations");
        }

        private static Response respond(Request request, int code, String body) {
            return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(code).message("scripted")
                    .body(ResponseBody.create(body, MediaType.get("application/json"))).build();
        }
    }
}
