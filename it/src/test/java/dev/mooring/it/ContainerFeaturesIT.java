package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.it.probe.ProbeReconciler;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What only the container gives: a controller of the application's own module found by CDI, its
 * options overridden by MicroProfile Config, a request scope per pass, @Watch methods, the
 * injectable Controllers, and a start that fails on an invalid option.
 */
@ExtendWith(ArquillianExtension.class)
class ContainerFeaturesIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String PROBE = "probe";
    private static final String INVALID = "invalid";
    private static final String NODES = "nodes";
    private static final String STAGED = "staged";
    private static final String BAD_POLICY = "bad-policy";
    private static String stagedNamespace;
    private static String namespace;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = PROBE, managed = false, testable = false)
    static EnterpriseArchive probe() throws ApiException {
        namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "probe");
        return ear("probe.ear", "mooring.controller.probe.namespace=" + namespace + "\n");
    }

    @Deployment(name = INVALID, managed = false, testable = false)
    static EnterpriseArchive invalid() {
        return ear("invalid.ear", "mooring.controller.probe.namespace=default\nmooring.controller.probe.workers=zero\n");
    }

    @Deployment(name = "bad-global", managed = false, testable = false)
    static EnterpriseArchive badGlobal() {
        return ear("bad-global.ear", "mooring.controller.probe.namespace=default\nmooring.request.timeout=abc\n");
    }

    @Deployment(name = "unknown-controller", managed = false, testable = false)
    static EnterpriseArchive unknownController() {
        return ear("unknown-controller.ear", "mooring.controller.probe.namespace=default\nmooring.controller.probe-typo.workers=4\n");
    }

    @Deployment(name = "unknown-option", managed = false, testable = false)
    static EnterpriseArchive unknownOption() {
        return ear("unknown-option.ear", "mooring.controller.probe.namespace=default\nmooring.controller.probe.worker=4\n");
    }

    @Deployment(name = "bad-selector", managed = false, testable = false)
    static EnterpriseArchive badSelector() {
        return ear("bad-selector.ear", "mooring.controller.probe.namespace=default\nmooring.controller.probe.label-selector=!!\n");
    }

    @Deployment(name = NODES, managed = false, testable = false)
    static EnterpriseArchive nodes() {
        JavaArchive module = ShrinkWrap.create(JavaArchive.class, "nodes-operator.jar")
                .addPackage(dev.mooring.it.nodes.NodeProbe.class.getPackage())
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml");
        return Ears.withLibrary("nodes.ear", module);
    }

    @Deployment(name = BAD_POLICY, managed = false, testable = false)
    static EnterpriseArchive badPolicy() {
        JavaArchive module = ShrinkWrap.create(JavaArchive.class, "bad-policy.jar")
                .addPackage(dev.mooring.it.badpolicy.BadPolicy.class.getPackage())
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml");
        return Ears.withLibrary("bad-policy.ear", module);
    }

    @Deployment(name = STAGED, managed = false, testable = false)
    static EnterpriseArchive staged() throws Exception {
        dev.mooring.it.widget.WidgetCrd.install(Testbed.client());
        stagedNamespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "staged");
        JavaArchive module = ShrinkWrap.create(JavaArchive.class, "staged-operator.jar")
                .addClasses(dev.mooring.it.stagedprobe.StagedProbe.class, dev.mooring.examples.snippets.Widget.class,
                        dev.mooring.examples.snippets.Widget.Spec.class, dev.mooring.examples.snippets.Widget.Status.class)
                .addAsManifestResource(Ears.ANNOTATED_BEANS, "beans.xml")
                .addAsManifestResource(new StringAsset("mooring.controller.staged.namespace=" + stagedNamespace + "\n"),
                        "microprofile-config.properties");
        return Ears.withLibrary("staged.ear", module);
    }

    /** A Staged bean found by CDI: its stages and cases run on the bean, conditions reach the object. */
    @Test
    void aStagedControllerRunsThroughCdi() throws Exception {
        deployer.deploy(STAGED);
        try {
            dev.mooring.engine.kube.KubeHttp raw = new dev.mooring.engine.kube.KubeHttp(Testbed.client());
            String collection = "/apis/example.com/v1/namespaces/" + stagedNamespace + "/widgets";
            raw.send("POST", collection, Map.of(), "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\","
                    + "\"metadata\":{\"name\":\"w\"},\"spec\":{\"message\":\"hi\",\"replicas\":1}}", "application/json");
            Eventually.await("Ready", TIMEOUT, () -> raw.get(collection + "/w", Map.of()),
                    json -> "True".equals(conditionStatus(json, "Ready")) && "True".equals(conditionStatus(json, "Checked")));
            raw.send("PATCH", collection + "/w", Map.of(), "{\"spec\":{\"replicas\":0}}", "application/merge-patch+json");
            String waiting = Eventually.await("the fallback's Wait", TIMEOUT, () -> raw.get(collection + "/w", Map.of()).toString(),
                    json -> json.contains("NotPositive"));
            assertTrue(waiting.contains("\"observedMessage\":\"hi\""), waiting);
        } finally {
            deployer.undeploy(STAGED);
        }
    }

    private static String conditionStatus(com.google.gson.JsonObject object, String type) {
        if (!object.has("status") || !object.getAsJsonObject("status").has("conditions")) {
            return null;
        }
        for (com.google.gson.JsonElement condition : object.getAsJsonObject("status").getAsJsonArray("conditions")) {
            if (type.equals(condition.getAsJsonObject().get("type").getAsString())) {
                return condition.getAsJsonObject().get("status").getAsString();
            }
        }
        return null;
    }

    private static EnterpriseArchive ear(String name, String config) {
        JavaArchive module = ShrinkWrap.create(JavaArchive.class, "probe-operator.jar")
                .addPackage(ProbeReconciler.class.getPackage())
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsManifestResource(new StringAsset(config), "microprofile-config.properties");
        return Ears.withLibrary(name, module);
    }

    @Test
    void containerFeaturesWork() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        deployer.deploy(PROBE);
        try {
            Eventually.await("readiness UP", TIMEOUT, () -> Http.get("/health/ready"), answer -> answer.status() == 200);

            core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("one"))
                    .data(Map.of("k", "v"))).execute();
            Map<String, String> report = awaitReport(core, "one", 1);
            assertEquals(namespace, report.get("namespace"), "the namespace override from MicroProfile Config");
            assertEquals("true", report.get("sameWithinPass"), "one request-scoped instance within a pass");
            assertEquals("true", report.get("newPerPass"), "a new request-scoped instance per pass");

            // @Watch: a Secret targeting "one" reconciles it again.
            core.createNamespacedSecret(namespace, new V1Secret().metadata(new V1ObjectMeta().name("s")
                    .labels(Map.of("target", "one"))).stringData(Map.of("k", "v"))).execute();
            report = awaitReport(core, "one", 2);
            assertEquals("true", report.get("newPerPass"));
            // @CacheTransform: the Secret is cached without its values
            assertEquals("1", report.get("cachedSecrets"));
            assertEquals("0", report.get("cachedSecretsWithData"), "the transform dropped the Secret's data from the cache");

            // Controllers.enqueue from inside the application: "two" asks for another pass of "one".
            core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("two"))
                    .data(Map.of("enqueue", "one"))).execute();
            awaitReport(core, "one", 3);

            // @Watch(metadataOf = ...): a ServiceAccount targeting "one" reconciles it; its metadata is cached under its kind
            assertEquals("0", report.get("cachedAccounts"));
            core.createNamespacedServiceAccount(namespace, new io.kubernetes.client.openapi.models.V1ServiceAccount()
                    .metadata(new V1ObjectMeta().name("sa").labels(Map.of("target", "one")))).execute();
            report = Eventually.await("a pass of one that sees the ServiceAccount", TIMEOUT, () -> read(core, "report-one"),
                    seen -> seen.isPresent() && "1".equals(seen.get().get("cachedAccounts"))).orElseThrow();
            assertEquals("v1/ServiceAccount", report.get("accountKinds"), "the kind watched, not PartialObjectMetadata");
        } finally {
            deployer.undeploy(PROBE);
        }
    }

    @Test
    void anInvalidOptionFailsTheStartAndLivenessNamingTheProperty() throws Exception {
        assertFailedStart(INVALID, "mooring.controller.probe.workers must be a whole number of at least 1, got 'zero'");
    }

    /**
     * A wrong global value, a typo in a controller's name or option, a selector that does not
     * parse: each fails the start (the application deploys and starts nothing), with liveness,
     * readiness and the log naming the property.
     */
    @Test
    void configurationMistakesFailTheStartNamingTheProperty() throws Exception {
        Map<String, String> expected = new java.util.LinkedHashMap<>();
        expected.put("bad-global", "mooring.request.timeout");
        expected.put("unknown-controller", "mooring.controller.probe-typo.workers: this deployment has no controller named 'probe-typo'");
        expected.put("unknown-option", "mooring.controller.probe.worker: controllers have no option 'worker'");
        expected.put("bad-selector", "mooring.controller.probe.label-selector is not a label selector");
        for (Map.Entry<String, String> mistake : expected.entrySet()) {
            assertFailedStart(mistake.getKey(), mistake.getValue());
        }
        assertTrue(Files.readString(Path.of(System.getProperty("mooring.it.liberty.log"))).contains("'abc'"),
                "the wrong value is named with its property");
    }

    /** Deploys {@code name}, sees liveness, readiness and a SEVERE log line name {@code problem}, undeploys it. */
    private void assertFailedStart(String name, String problem) throws Exception {
        Path log = Path.of(System.getProperty("mooring.it.liberty.log"));
        deployer.deploy(name);
        try {
            Http.Answer live = Http.get("/health/live");
            assertEquals(503, live.status(), name + ": " + live.body());
            assertTrue(live.check("mooring-runtime").getJsonObject("data").toString().contains(problem), name + ": " + live.body());
            Http.Answer ready = Http.get("/health/ready");
            assertEquals(503, ready.status(), name + ": " + ready.body());
            assertTrue(Files.readString(log).lines().anyMatch(line -> line.contains(" E ")
                    && line.contains("Mooring cannot start: ") && line.contains(problem)), name + ": no SEVERE line naming " + problem);
        } finally {
            deployer.undeploy(name);
        }
    }

    /** An admission option the API server would refuse fails the deployment, naming the method. */
    @Test
    void anInvalidAdmissionOptionFailsTheDeploymentNamingTheMethod() throws Exception {
        Path log = Path.of(System.getProperty("mooring.it.liberty.log"));
        assertThrows(Exception.class, () -> deployer.deploy(BAD_POLICY));
        try {
            Eventually.await("the deployment problem in the server log", TIMEOUT, () -> Files.readString(log),
                    text -> text.contains("Admission method dev.mooring.it.badpolicy.BadPolicy.check: timeoutSeconds must be an"
                            + " integer between 1 and 30, not 31"));
        } finally {
            try {
                deployer.undeploy(BAD_POLICY);
            } catch (RuntimeException e) {
                // it never started
            }
        }
    }

    /** A fatal error (here: a kind the server does not serve) is visible in health with its cause. */
    @Test
    void aFatalControllerErrorTurnsLivenessDownWithItsCause() throws Exception {
        deployer.deploy(NODES);
        try {
            Http.Answer live = Eventually.await("liveness DOWN", TIMEOUT, () -> Http.get("/health/live"),
                    answer -> answer.status() == 503);
            assertTrue(live.body().contains("does not serve kind Node"), live.body());
            Http.Answer ready = Http.get("/health/ready");
            assertEquals(503, ready.status());
            assertTrue(ready.body().contains("\"nodes\":\"failed"), ready.body());
        } finally {
            deployer.undeploy(NODES);
        }
    }

    private static Map<String, String> awaitReport(CoreV1Api core, String name, int passes) throws InterruptedException {
        return Eventually.await(name + " reconciled " + passes + " time(s)", TIMEOUT, () -> read(core, "report-" + name),
                report -> report.isPresent() && Integer.parseInt(report.get().getOrDefault("passes", "0")) >= passes)
                .orElseThrow();
    }

    private static Optional<Map<String, String>> read(CoreV1Api core, String name) throws ApiException {
        try {
            return Optional.ofNullable(core.readNamespacedConfigMap(name, namespace).execute().getData());
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
