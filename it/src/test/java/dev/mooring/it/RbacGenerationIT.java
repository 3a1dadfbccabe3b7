package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.admission.AdmissionCaches;
import dev.mooring.engine.admission.AdmissionDispatcher;
import dev.mooring.engine.admission.AdmissionRoutes;
import dev.mooring.engine.client.LiveResourceClient;
import dev.mooring.engine.informer.Informer;
import dev.mooring.engine.informer.InformerCache;
import dev.mooring.engine.informer.InformerPool;
import dev.mooring.engine.kube.DiscoveredKinds;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ControllerOptions;
import dev.mooring.engine.model.StagePlan;
import dev.mooring.examples.admission.DatabasePolicy;
import dev.mooring.examples.admission.DeploymentPolicy;
import dev.mooring.examples.admission.PodPolicy;
import dev.mooring.examples.mirror.ConfigMapMirror;
import dev.mooring.examples.snippets.Widget;
import dev.mooring.examples.snippets.WidgetController;
import dev.mooring.it.widget.WidgetCrd;
import dev.mooring.manifests.Rbac;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.util.Config;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The generated RBAC is enough, and nothing in it is idle, for each example operator: on a testbed
 * that enforces RBAC, the operator runs with the token of a ServiceAccount that has nothing but
 * the generated roles, and its scenario completes without one refused request; without any one
 * generated rule, some request of the same scenario is refused.
 *
 * <p>The exception is the {@code <plural>/finalizers} rules: Kubernetes requires them to set
 * {@code blockOwnerDeletion} on children only where the OwnerReferencesPermissionEnforcement
 * admission plugin runs, which the testbed (built from the API server libraries) does not have.
 */
class RbacGenerationIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Duration REFUSAL_BOUND = Duration.ofSeconds(20);
    private static Path runDir;
    private static Properties rbac;

    /** A scenario run with the generated RBAC minus at most one rule; answers what the API server refused. */
    @FunctionalInterface
    private interface Scenario {
        void run(Run run) throws Exception;
    }

    @BeforeAll
    static void up() throws Exception {
        runDir = Testbed.runDir().resolveSibling("testbed-rbac-manifests");
        rbac = Testbed.up(runDir, "--authorization-mode=RBAC");
    }

    @AfterAll
    static void down() throws Exception {
        Testbed.down(runDir);
    }

    @Test
    void theWidgetControllerRunsWithTheGeneratedRbacOnly() throws Exception {
        assertEquals(List.of(), Run.of(List.of(WidgetController.class), null).scenario(RbacGenerationIT::widget),
                "requests the API server refused");
    }

    @Test
    void everyGeneratedRuleOfTheWidgetControllerIsNeeded() throws Exception {
        everyRuleIsNeeded(List.of(WidgetController.class), 6, RbacGenerationIT::widget);
    }

    @Test
    void theConfigMapMirrorRunsWithTheGeneratedRbacOnly() throws Exception {
        assertEquals(List.of(), Run.of(List.of(ConfigMapMirror.class), null).scenario(RbacGenerationIT::mirror),
                "requests the API server refused");
    }

    @Test
    void everyGeneratedRuleOfTheConfigMapMirrorIsNeeded() throws Exception {
        everyRuleIsNeeded(List.of(ConfigMapMirror.class), 2, RbacGenerationIT::mirror);
    }

    @Test
    void theAdmissionPoliciesRunWithTheGeneratedRbacOnly() throws Exception {
        assertEquals(List.of(), Run.of(POLICIES, null).scenario(RbacGenerationIT::policies), "requests the API server refused");
    }

    @Test
    void everyGeneratedRuleOfTheAdmissionPoliciesIsNeeded() throws Exception {
        everyRuleIsNeeded(POLICIES, 1, RbacGenerationIT::policies);
    }

    private static final List<Class<?>> POLICIES = List.of(PodPolicy.class, DatabasePolicy.class, DeploymentPolicy.class);

    /** Rules of the self-managed webhook certificates (the rest is the policy's own). */
    private static final java.util.function.Predicate<String> CERTIFICATE_RULES = rule -> rule.endsWith("/secrets")
            || rule.endsWith("/serviceaccounts") || rule.endsWith("webhookconfigurations");

    @Test
    void selfManagedCertificatesRunWithTheGeneratedRbacOnly() throws Exception {
        assertEquals(List.of(), Run.of(List.of(DeploymentPolicy.class), null, true).scenario(RbacGenerationIT::certificates),
                "requests the API server refused");
    }

    @Test
    void everyGeneratedRuleOfSelfManagedCertificatesIsNeeded() throws Exception {
        everyRuleIsNeeded(List.of(DeploymentPolicy.class), true, 5, CERTIFICATE_RULES, RbacGenerationIT::certificates);
    }

    /** Each generated rule but the finalizers ones is needed: without it, some request of the scenario is refused. */
    private static void everyRuleIsNeeded(List<Class<?>> classes, int atLeast, Scenario scenario) throws Exception {
        everyRuleIsNeeded(classes, false, atLeast, rule -> !rule.contains("/finalizers"), scenario);
    }

    /** Each generated rule that {@code considered} accepts is needed: without it, some request of the scenario is refused. */
    private static void everyRuleIsNeeded(List<Class<?>> classes, boolean selfManagedCertificates, int atLeast,
            java.util.function.Predicate<String> considered, Scenario scenario) throws Exception {
        List<String> rules = Run.rules(Run.manifests(classes, "probe", "probe", selfManagedCertificates));
        assertTrue(rules.stream().filter(considered).count() >= atLeast, rules.toString());
        for (int i = 0; i < rules.size(); i++) {
            if (!considered.test(rules.get(i))) {
                continue;
            }
            List<String> refused = Run.of(classes, i, selfManagedCertificates).scenario(scenario);
            assertTrue(!refused.isEmpty(), "without " + rules.get(i) + " nothing was refused: the rule is not needed");
            System.out.println("without " + rules.get(i) + ", refused: " + refused.get(0));
        }
    }

    /**
     * The user guide's WidgetController (a staged controller that ensures, applies and prunes
     * children, writes status and Events) brings a Widget to Ready.
     */
    private static void widget(Run run) throws Exception {
        WidgetCrd.install(run.admin.apiClient());
        try (Engine engine = run.engine(WidgetController.class, new WidgetController(),
                StagePlan.of(WidgetController.class, Widget.class))) {
            if (!run.started(engine)) {
                return;
            }
            KubeHttp http = run.admin;
            String widgets = "/apis/example.com/v1/namespaces/" + run.namespace + "/widgets";
            http.send("POST", widgets, Map.of(), "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},"
                    + "\"spec\":{\"message\":\"hi\",\"replicas\":2,\"exposed\":true}}", "application/json");
            if (!run.awaitOrRefused(() -> "DeploymentNotReady".equals(reason(http.get(widgets + "/w", Map.of()), "DeploymentReady")))) {
                return;
            }
            // nothing runs pods on the testbed: mark the Deployment available, then the Service stage runs
            http.send("PATCH", "/apis/apps/v1/namespaces/" + run.namespace + "/deployments/w/status", Map.of(),
                    "{\"status\":{\"replicas\":2,\"readyReplicas\":2}}", "application/merge-patch+json");
            boolean ready = run.awaitOrRefused(() -> "True".equals(status(http.get(widgets + "/w", Map.of()), "Ready")));
            if (run.complete()) {
                assertTrue(ready, "the Widget did not become Ready; refused: " + run.refused);
                assertTrue(engine.runtime.healthy(), String.valueOf(engine.runtime.failures()));
                Thread.sleep(1000); // the Events of the last pass
            }
        }
    }

    /**
     * The ConfigMap mirror creates a mirror, follows a change of its source, and refuses (with a
     * Warning Event) to overwrite a ConfigMap it does not control.
     */
    private static void mirror(Run run) throws Exception {
        try (Engine engine = run.engine(ConfigMapMirror.class, new ConfigMapMirror())) {
            if (!run.started(engine)) {
                return;
            }
            KubeHttp http = run.admin;
            String configMaps = "/api/v1/namespaces/" + run.namespace + "/configmaps";
            http.send("POST", configMaps, Map.of(), "{\"metadata\":{\"name\":\"taken-mirror\"},\"data\":{\"mine\":\"yes\"}}",
                    "application/json");
            for (String name : List.of("source", "taken")) {
                http.send("POST", configMaps, Map.of(), "{\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\""
                        + ConfigMapMirror.LABEL + "\":\"true\"}},\"data\":{\"a\":\"1\"}}", "application/json");
            }
            if (!run.awaitOrRefused(() -> "1".equals(data(http, configMaps + "/source-mirror", "a")))) {
                return;
            }
            http.send("PATCH", configMaps + "/source", Map.of(), "{\"data\":{\"a\":\"2\"}}", "application/merge-patch+json");
            boolean followed = run.awaitOrRefused(() -> "2".equals(data(http, configMaps + "/source-mirror", "a")));
            boolean warned = run.awaitOrRefused(() -> http.get("/apis/events.k8s.io/v1/namespaces/" + run.namespace + "/events", Map.of())
                    .getAsJsonArray("items").toString().contains("MirrorNotOwned"));
            if (run.complete()) {
                assertTrue(followed, "the mirror did not follow its source; refused: " + run.refused);
                assertTrue(warned, "no MirrorNotOwned Event; refused: " + run.refused);
                assertEquals("yes", data(http, configMaps + "/taken-mirror", "mine"), "a ConfigMap the mirror does not control");
            }
        } finally {
            // the mirror watches all namespaces: the next run's controller must not meet these sources
            for (String name : List.of("source", "taken")) {
                String path = "/api/v1/namespaces/" + run.namespace + "/configmaps/" + name;
                if (run.admin.getOptional(path, Map.of()).isPresent()) {
                    run.admin.send("DELETE", path, Map.of(), null, null);
                }
            }
        }
    }

    /**
     * The admission-policies example's Pod policy answers from its Namespace cache (a frozen
     * namespace denies, a thawed one allows) and from its live fallback read (a namespace the
     * cache has not seen), with the dispatcher and caches as {@code AdmissionService} wires them.
     */
    private static void policies(Run run) throws Exception {
        ExecutorService executor = Executors.newCachedThreadPool();
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1);
        InformerPool pool = new InformerPool(new KubeHttp(run.operator), new KubeHttp(run.watches), Duration.ofSeconds(2));
        try {
            KubeHttp http = run.admin;
            String frozen = run.namespace + "-frozen";
            String thawed = run.namespace + "-thawed";
            for (String name : List.of(frozen, thawed)) {
                http.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\""
                        + PodPolicy.FROZEN + "\":\"" + (name.equals(frozen)) + "\"}}}", "application/json");
            }
            DiscoveredKinds types = new DiscoveredKinds(new KubeHttp(run.operator));
            Informer<V1Namespace> namespaces = pool.acquire(types.resolve(V1Namespace.class), null, null, Duration.ofMinutes(10));
            pool.start(namespaces, executor, scheduler);
            if (!run.awaitOrRefused(() -> namespaces.hasSynced()
                    && new InformerCache<>(namespaces).get(null, thawed).isPresent())) {
                return;
            }
            PodPolicy policy = new PodPolicy();
            AdmissionCaches reads = new AdmissionCaches(namespace -> new LiveResourceClient(new KubeHttp(run.operator), types,
                    namespace));
            reads.started(PodPolicy.class, V1Namespace.class, namespaces);
            AdmissionDispatcher dispatcher = AdmissionDispatcher.builder(AdmissionRoutes.of(PodPolicy.class), bean -> policy,
                    executor, reads).build();
            String path = dispatcher.routes().keySet().iterator().next();
            // created after the cache synced and read at once: the cache may not have it yet, the live read has
            String late = run.namespace + "-late";
            http.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + late + "\",\"labels\":{\""
                    + PodPolicy.FROZEN + "\":\"true\"}}}", "application/json");
            Map<String, String> answers = new java.util.LinkedHashMap<>();
            for (String namespace : List.of(frozen, thawed, late)) {
                AdmissionDispatcher.Answer answer = dispatcher.handle("POST", path, "application/json",
                        new java.io.ByteArrayInputStream(podReview(namespace).getBytes(java.nio.charset.StandardCharsets.UTF_8)), true);
                answers.put(namespace, answer.status() + (answer.denied() ? " denied" : " allowed"));
            }
            if (run.complete()) {
                assertEquals(Map.of(frozen, "200 denied", thawed, "200 allowed", late, "200 denied"), answers,
                        "refused: " + run.refused);
            }
        } finally {
            pool.stopAll();
            executor.shutdownNow();
            scheduler.shutdownNow();
        }
    }

    /**
     * Two replicas of the self-managed webhook certificates agree on one Secret (owned by the
     * ServiceAccount), write its CA bundle into both configurations and serve its certificate; after
     * the Secret is deleted (a forced rotation) both serve a new one, with the old CA still trusted.
     */
    private static void certificates(Run run) throws Exception {
        String configuration = run.name + "." + run.namespace + ".svc";
        String configurations = "/apis/admissionregistration.k8s.io/v1/%swebhookconfigurations";
        for (String kind : List.of("validating", "mutating")) {
            // as generated, but aimed at a resource nobody writes: the testbed never calls them
            run.admin.send("POST", String.format(configurations, kind), Map.of(), "{\"metadata\":{\"name\":\"" + configuration
                    + "\"},\"webhooks\":[{\"name\":\"w." + configuration + "\",\"admissionReviewVersions\":[\"v1\"],"
                    + "\"sideEffects\":\"None\",\"failurePolicy\":\"Ignore\",\"clientConfig\":{\"service\":{\"name\":\""
                    + run.name + "\",\"namespace\":\"" + run.namespace + "\",\"port\":443}},\"rules\":[{\"apiGroups\":"
                    + "[\"example.invalid\"],\"apiVersions\":[\"v1\"],\"operations\":[\"CREATE\"],\"resources\":[\"nothings\"]}]}]}",
                    "application/json");
        }
        ExecutorService executor = Executors.newCachedThreadPool();
        Path files = java.nio.file.Files.createTempDirectory(runDir, "certificates");
        var settings = dev.mooring.engine.certificates.CertificateSettings.builder(run.namespace, run.name + "-tls", run.name,
                configuration).serviceAccount(run.name).servingValidity(Duration.ofDays(90)).caValidity(Duration.ofDays(3650)).build();
        List<dev.mooring.engine.certificates.SelfManagedCertificates> replicas = new java.util.ArrayList<>();
        try {
            for (String replica : List.of("a", "b")) {
                var certificates = new dev.mooring.engine.certificates.SelfManagedCertificates(new KubeHttp(run.operator),
                        new KubeHttp(run.watches), settings, files.resolve(replica + "/tls.crt"), files.resolve(replica + "/tls.key"),
                        java.time.Instant::now, Duration.ofSeconds(2));
                certificates.informers().forEach(informer -> executor.submit(informer::run));
                replicas.add(certificates);
            }
            String secret = "/api/v1/namespaces/" + run.namespace + "/secrets/" + run.name + "-tls";
            java.util.function.Supplier<String> agreement = () -> {
                replicas.forEach(dev.mooring.engine.certificates.SelfManagedCertificates::check);
                return agreedCertificate(run.admin, secret, String.format(configurations, "validating") + "/" + configuration,
                        String.format(configurations, "mutating") + "/" + configuration, files);
            };
            if (!run.awaitOrRefused(() -> agreement.get() != null)) {
                assertTrue(!run.complete(), "the replicas did not agree: " + replicas.stream()
                        .map(dev.mooring.engine.certificates.SelfManagedCertificates::detail).toList() + "; refused: " + run.refused);
                return;
            }
            String first = agreement.get();
            var owners = run.admin.get(secret, Map.of()).getAsJsonObject("metadata").getAsJsonArray("ownerReferences");
            var owner = owners.get(0).getAsJsonObject();
            String firstCa = caBundle(run.admin, secret).get(0);
            run.admin.send("DELETE", secret, Map.of(), null, null);
            if (!run.awaitOrRefused(() -> {
                String now = agreement.get();
                return now != null && !now.equals(first);
            })) {
                assertTrue(!run.complete(), "no new certificate after the Secret was deleted: " + replicas.stream()
                        .map(dev.mooring.engine.certificates.SelfManagedCertificates::detail).toList() + "; refused: " + run.refused);
                return;
            }
            if (run.complete()) {
                assertEquals(1, owners.size(), owners.toString());
                assertEquals("ServiceAccount", owner.get("kind").getAsString());
                assertEquals(run.name, owner.get("name").getAsString());
                List<String> bundle = caBundle(run.admin, secret);
                assertEquals(2, bundle.size(), "the new CA and the one replaced: " + bundle);
                assertEquals(firstCa, bundle.get(1), "the replaced CA stays trusted, second");
            }
        } finally {
            replicas.forEach(replica -> replica.informers().forEach(Informer::stop));
            executor.shutdownNow();
        }
    }

    /**
     * The serving certificate (PEM) both replicas' files, the Secret and (through its CA) both
     * configurations agree on; null while they do not.
     */
    private static String agreedCertificate(KubeHttp admin, String secretPath, String validating, String mutating, Path files) {
        try {
            var secret = admin.getOptional(secretPath, Map.of());
            if (secret.isEmpty()) {
                return null;
            }
            var data = secret.get().getAsJsonObject("data");
            String certificate = new String(java.util.Base64.getDecoder().decode(data.get("tls.crt").getAsString()));
            String bundle = data.get("ca.crt").getAsString();
            for (String replica : List.of("a", "b")) {
                Path file = files.resolve(replica + "/tls.crt");
                if (!java.nio.file.Files.exists(file) || !java.nio.file.Files.readString(file).equals(certificate)) {
                    return null;
                }
            }
            for (String configuration : List.of(validating, mutating)) {
                var webhook = admin.get(configuration, Map.of()).getAsJsonArray("webhooks").get(0).getAsJsonObject();
                var client = webhook.getAsJsonObject("clientConfig");
                if (!client.has("caBundle") || !bundle.equals(client.get("caBundle").getAsString())) {
                    return null;
                }
            }
            return certificate;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The PEM blocks of the Secret's CA bundle, in order. */
    private static List<String> caBundle(KubeHttp admin, String secretPath) {
        String pem = new String(java.util.Base64.getDecoder().decode(admin.get(secretPath, Map.of()).getAsJsonObject("data")
                .get("ca.crt").getAsString()));
        return java.util.Arrays.stream(pem.split("(?<=-----END CERTIFICATE-----\n)")).filter(block -> !block.isBlank()).toList();
    }

    private static String podReview(String namespace) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u-" + namespace + "\","
                + "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
                + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},"
                + "\"namespace\":\"" + namespace + "\",\"operation\":\"CREATE\",\"userInfo\":{\"username\":\"someone\"},"
                + "\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"" + namespace
                + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}";
    }

    private static String data(KubeHttp http, String path, String key) {
        return http.getOptional(path, Map.of()).filter(map -> map.has("data") && map.getAsJsonObject("data").has(key))
                .map(map -> map.getAsJsonObject("data").get(key).getAsString()).orElse(null);
    }

    /**
     * One run: a namespace of its own, the generated ServiceAccount, roles and bindings (named
     * uniquely, so that cluster roles of runs do not mix) without at most one rule, and clients
     * with the ServiceAccount's token that record every request the API server refuses.
     */
    private static final class Run {
        final KubeHttp admin;
        final String namespace;
        final String name;
        final Integer drop;
        final ApiClient operator;
        final ApiClient watches;
        final List<String> refused = new java.util.concurrent.CopyOnWriteArrayList<>();

        private Run(KubeHttp admin, String namespace, String name, Integer drop, String token) {
            this.admin = admin;
            this.namespace = namespace;
            this.name = name;
            this.drop = drop;
            this.operator = refusals(Config.fromToken(rbac.getProperty("TESTBED_SERVER"), token, false), refused);
            this.watches = refusals(Config.fromToken(rbac.getProperty("TESTBED_SERVER"), token, false), refused).setReadTimeout(5_000);
        }

        /** Prepares a run for these classes without the rule {@code drop} (an index into {@link #rules}; null: none). */
        static Run of(List<Class<?>> classes, Integer drop) throws Exception {
            return of(classes, drop, false);
        }

        /** Like {@link #of(List, Integer)}, with the RBAC of self-managed webhook certificates when asked. */
        static Run of(List<Class<?>> classes, Integer drop, boolean selfManagedCertificates) throws Exception {
            KubeHttp admin = new KubeHttp(Config.fromConfig(runDir.resolve("admin.kubeconfig").toString()));
            String suffix = java.util.UUID.randomUUID().toString().substring(0, 8);
            String namespace = "operators-" + suffix;
            String name = "operator-" + suffix;
            admin.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + namespace + "\"}}", "application/json");
            List<JsonObject> manifests = manifests(classes, name, namespace, selfManagedCertificates);
            int index = 0;
            for (JsonObject manifest : manifests) {
                if (manifest.getString("kind").endsWith("Role")) {
                    var rules = Json.createArrayBuilder();
                    for (JsonValue rule : manifest.getJsonArray("rules")) {
                        if (drop == null || index != drop) {
                            rules.add(rule);
                        }
                        index++;
                    }
                    manifest = Json.createObjectBuilder(manifest).add("rules", rules).build();
                }
                apply(admin, manifest);
            }
            return new Run(admin, namespace, name, drop, Testbed.token(runDir, namespace, name));
        }

        static List<JsonObject> manifests(List<Class<?>> classes, String name, String namespace) {
            return manifests(classes, name, namespace, false);
        }

        static List<JsonObject> manifests(List<Class<?>> classes, String name, String namespace, boolean selfManagedCertificates) {
            return Rbac.of(classes, Rbac.Settings.builder(name, namespace).selfManagedCertificates(selfManagedCertificates).build());
        }

        /** The generated roles' rules as "Kind group/resource", in the order {@link #of} numbers them. */
        static List<String> rules(List<JsonObject> manifests) {
            return manifests.stream().filter(manifest -> manifest.getString("kind").endsWith("Role"))
                    .flatMap(manifest -> manifest.getJsonArray("rules").getValuesAs(JsonObject.class).stream()
                            .map(rule -> manifest.getString("kind") + " " + rule.getJsonArray("apiGroups").getString(0) + "/"
                                    + rule.getJsonArray("resources").getString(0)))
                    .toList();
        }

        /** Runs the scenario; answers the refused requests as "METHOD path". */
        List<String> scenario(Scenario scenario) throws Exception {
            scenario.run(this);
            return refused;
        }

        /** True when no rule was dropped: the scenario must complete. */
        boolean complete() {
            return drop == null;
        }

        /** The engine with this controller as generated offline, on the run's clients. */
        Engine engine(Class<?> controller, dev.mooring.api.Reconciler<?> reconciler) {
            return engine(controller, reconciler, null);
        }

        /** @param stages the stage plan of a {@code Staged} bean, else null */
        Engine engine(Class<?> controller, Object bean, StagePlan stages) {
            return new Engine(operator, watches, List.of(new OperatorRuntime.Entry(
                    ControllerOptions.offline(controller, namespace).orElseThrow(), bean, stages)), namespace);
        }

        /** Waits until the engine started or something was refused; true when it started. */
        boolean started(Engine engine) throws InterruptedException {
            Eventually.await("the engine started or refused", TIMEOUT, () -> engine.runtime.ready() || !refused.isEmpty()
                    || !engine.runtime.healthy());
            if (complete()) {
                assertTrue(engine.runtime.ready(), "the engine did not start: " + engine.runtime.failures() + "; refused: " + refused);
            }
            return refused.isEmpty() && engine.runtime.ready();
        }

        /** Waits until {@code condition} or a refusal; true when the condition held. */
        boolean awaitOrRefused(java.util.function.BooleanSupplier condition) throws InterruptedException {
            return RbacGenerationIT.awaitOrRefused(complete() ? TIMEOUT : REFUSAL_BOUND, refused, condition);
        }
    }

    /** Waits until {@code condition} or a refusal; true when the condition held. */
    private static boolean awaitOrRefused(Duration bound, List<String> refused, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        long end = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < end && refused.isEmpty()) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(200);
        }
        return false;
    }

    /** The client, recording every request the API server answers 403. */
    private static ApiClient refusals(ApiClient client, List<String> refused) {
        return client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
            okhttp3.Response response = chain.proceed(chain.request());
            if (response.code() == 403) {
                refused.add(chain.request().method() + " " + chain.request().url().encodedPath());
            }
            return response;
        }).build());
    }

    /** Creates a generated object with the admin identity (an existing one is left as it is). */
    /** Create one generated RBAC object (a ServiceAccount only where the testbed serves them). */
    static void apply(KubeHttp http, JsonObject manifest) {
        String kind = manifest.getString("kind");
        String namespace = manifest.getJsonObject("metadata").getString("namespace", null);
        String collection = switch (kind) {
            case "ServiceAccount" -> "/api/v1/namespaces/" + namespace + "/serviceaccounts";
            case "Role", "RoleBinding" -> "/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/" + kind.toLowerCase() + "s";
            default -> "/apis/rbac.authorization.k8s.io/v1/" + kind.toLowerCase() + "s";
        };
        if (kind.equals("ServiceAccount") && http.getOptional("/api/v1", Map.of()).map(Object::toString)
                .filter(api -> api.contains("\"serviceaccounts\"")).isEmpty()) {
            return; // the testbed serves no ServiceAccount objects; its tokens need none
        }
        http.send("POST", collection, Map.of(), manifest.toString(), "application/json");
    }

    private static com.google.gson.JsonObject condition(com.google.gson.JsonObject widget, String type) {
        if (!widget.has("status") || !widget.getAsJsonObject("status").has("conditions")) {
            return null;
        }
        for (var item : widget.getAsJsonObject("status").getAsJsonArray("conditions")) {
            if (type.equals(item.getAsJsonObject().get("type").getAsString())) {
                return item.getAsJsonObject();
            }
        }
        return null;
    }

    private static String status(com.google.gson.JsonObject widget, String type) {
        com.google.gson.JsonObject condition = condition(widget, type);
        return condition == null ? null : condition.get("status").getAsString();
    }

    private static String reason(com.google.gson.JsonObject widget, String type) {
        com.google.gson.JsonObject condition = condition(widget, type);
        return condition == null ? null : condition.get("reason").getAsString();
    }
}
