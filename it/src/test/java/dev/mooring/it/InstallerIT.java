package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.it.install.Sprocket;
import dev.mooring.it.install.SprocketController;
import dev.mooring.it.install.SprocketValidator;
import dev.mooring.manifests.GenerateManifests;
import dev.mooring.manifests.Installer;
import dev.mooring.manifests.ManifestFolder;
import dev.mooring.test.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The installer on the real API server, with manifests generated from classes (a CRD, a
 * controller, a validator). The testbed runs no Deployment controller: a stand-in marks the
 * Deployment's current generation available when the test lets it, and checks meanwhile that no
 * webhook registration exists yet.
 */
class InstallerIT {

    private static final KubeHttp HTTP = new KubeHttp(Testbed.client());
    /** A CA bundle as cert-manager's CA injector would write it (any PEM CA will do: nothing calls the webhooks here). */
    private static final String INJECTED = readCa();
    private static final String CRD = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sprockets.install.mooring.dev";

    @TempDir
    Path folder;

    private String namespace;
    private String deployment;
    private String webhooks;
    private final AtomicBoolean rollOut = new AtomicBoolean();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final List<String> progress = new CopyOnWriteArrayList<>();
    private Thread deploymentController;

    @BeforeEach
    void generate() throws Exception {
        namespace = "install-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        deployment = "/apis/apps/v1/namespaces/" + namespace + "/deployments/sprockets";
        Map<String, String> files = GenerateManifests.files(List.of(Sprocket.class, SprocketController.class, SprocketValidator.class),
                GenerateManifests.Options.builder().name("sprockets").namespace(namespace)
                        .image("example/sprockets:1").replicas(1).injectCaFrom("cert-manager/sprockets").build(), Map.of());
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.writeString(folder.resolve(file.getKey()), file.getValue());
        }
        JsonObject registration = ManifestFolder.read(folder).stream()
                .filter(object -> object.get("kind").getAsString().equals("ValidatingWebhookConfiguration")).findFirst().orElseThrow();
        webhooks = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/"
                + registration.getAsJsonObject("metadata").get("name").getAsString();
        deploymentController = new Thread(this::standInDeploymentController, "stand-in deployment controller");
        deploymentController.start();
    }

    @AfterEach
    void cleanUp() throws Exception {
        stop.set(true);
        deploymentController.join();
        new Installer(HTTP, new Installer.Options(Duration.ofSeconds(30), false, false), line -> { }).uninstall(ManifestFolder.read(folder));
        // a deleted CRD lingers while its objects go: the next test must not apply it while it terminates
        Eventually.await("the CRD gone", Duration.ofSeconds(60), () -> HTTP.getOptional(CRD, Map.of()).isEmpty());
    }

    @Test
    void installsInOrderWaitingForTheCrdAndTheRolloutThenUninstallsInReverse() throws Exception {
        List<JsonObject> objects = ManifestFolder.read(folder);
        Thread release = new Thread(() -> {
            try {
                Eventually.await("the Deployment applied", Duration.ofSeconds(30), () -> HTTP.getOptional(deployment, Map.of()).isPresent());
                Thread.sleep(1000); // the installer waits meanwhile
                rollOut.set(true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        release.start();
        installer(Duration.ofSeconds(60), false).install(objects);
        release.join();
        assertEquals(List.of(), violations, "webhook registration before the Deployment was available");
        assertTrue(HTTP.getOptional(webhooks, Map.of()).isPresent(), "the webhooks are registered");
        assertEquals(List.of("[check]", "[namespaces]", "[crds]", "[rbac]", "[workload]", "[rollout]", "[webhooks]"),
                progress.stream().filter(line -> line.startsWith("[")).toList(), String.valueOf(progress));
        assertTrue(progress.contains("  established CustomResourceDefinition sprockets.install.mooring.dev"), String.valueOf(progress));
        assertTrue(progress.contains("  available Deployment " + namespace + "/sprockets"), String.valueOf(progress));
        // the webhooks step ends once the CA bundle is in (here from the stand-in CA injector): before, calls cannot succeed
        assertTrue(progress.stream().anyMatch(line -> line.startsWith("  CA bundle in ValidatingWebhookConfiguration")),
                String.valueOf(progress));
        assertEquals(java.util.Base64.getEncoder().encodeToString(INJECTED.getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
                HTTP.get(webhooks, Map.of()).getAsJsonArray("webhooks").get(0).getAsJsonObject().getAsJsonObject("clientConfig")
                        .get("caBundle").getAsString(), "the bundle the installer waited for");
        JsonObject applied = HTTP.get(deployment, Map.of());
        assertTrue(applied.getAsJsonObject("metadata").getAsJsonArray("managedFields").toString()
                .contains("\"manager\":\"" + Installer.FIELD_MANAGER + "\""), "applied by the named field manager");

        // installing again changes nothing and passes
        installer(Duration.ofSeconds(30), false).install(objects);

        // custom resources go first, while the operator still runs: one that keeps a finalizer nobody removes fails the
        // step after the timeout, naming it and its finalizer, with the operator and the CRD still there
        String sprockets = "/apis/install.mooring.dev/v1/namespaces/" + namespace + "/sprockets";
        // (the validating webhook of Sprockets has no server behind it here: its registration goes, as uninstall's first step)
        HTTP.send("DELETE", webhooks, Map.of(), null, null);
        // the API server's admission plugin sees the deletion through its own informer: until then it still calls the webhook
        Eventually.await("the API server no longer calls the deleted webhook", Duration.ofSeconds(30), () -> {
            try {
                HTTP.send("POST", sprockets, Map.of(), "{\"apiVersion\":\"install.mooring.dev/v1\",\"kind\":\"Sprocket\","
                        + "\"metadata\":{\"name\":\"plain\"}}", "application/json");
                return true;
            } catch (dev.mooring.api.client.KubernetesException e) {
                if (!e.getMessage().contains("failed calling webhook")) {
                    throw e;
                }
                return false;
            }
        });
        HTTP.send("POST", sprockets, Map.of(), "{\"apiVersion\":\"install.mooring.dev/v1\",\"kind\":\"Sprocket\","
                + "\"metadata\":{\"name\":\"held\",\"finalizers\":[\"install.mooring.dev/held\"]}}", "application/json");
        progress.clear();
        Installer.StepFailed held = assertThrows(Installer.StepFailed.class,
                () -> installer(Duration.ofSeconds(8), false).uninstall(objects));
        assertEquals("custom-resources", held.step(), held.getMessage());
        assertTrue(held.getMessage().contains("1 Sprocket left") && held.getMessage().contains("Sprocket " + namespace + "/held")
                && held.getMessage().contains("install.mooring.dev/held"), held.getMessage());
        assertTrue(progress.stream().anyMatch(line -> line.startsWith("  waiting: 1 Sprocket left")), "progress while it waits: "
                + progress);
        assertTrue(HTTP.getOptional(deployment, Map.of()).isPresent() && HTTP.getOptional(CRD, Map.of()).isPresent(),
                "the operator and the CRD stay while custom resources are left");
        assertTrue(HTTP.getOptional(sprockets + "/plain", Map.of()).isEmpty(), "the one without a finalizer is gone");
        // what the operator would do: finish the finalizer; then the uninstall completes, the CRD awaited until gone
        HTTP.send("PATCH", sprockets + "/held", Map.of(), "{\"metadata\":{\"finalizers\":null}}", "application/merge-patch+json");
        progress.clear();
        installer(Duration.ofSeconds(30), false).uninstall(objects);
        assertEquals(List.of("[check]", "[webhooks]", "[custom-resources]", "[workload]", "[rbac]", "[crds]"),
                progress.stream().filter(line -> line.startsWith("[")).toList(), String.valueOf(progress));
        assertTrue(progress.contains("  gone CustomResourceDefinition sprockets.install.mooring.dev"), String.valueOf(progress));
        assertTrue(HTTP.getOptional(webhooks, Map.of()).isEmpty() && HTTP.getOptional(deployment, Map.of()).isEmpty());
        assertTrue(HTTP.getOptional(CRD, Map.of()).isEmpty(), "the uninstall waited for the CRD to go");
        // uninstalling again finds everything absent
        installer(Duration.ofSeconds(30), false).uninstall(objects);
    }

    @Test
    void aRolloutThatDoesNotCompleteFailsItsStepAndLeavesWhatWasAppliedWithoutWebhooks() throws Exception {
        Installer.StepFailed failed = assertThrows(Installer.StepFailed.class,
                () -> installer(Duration.ofSeconds(4), false).install(ManifestFolder.read(folder)));
        assertEquals("rollout", failed.step());
        assertTrue(failed.getMessage().contains("Deployment " + namespace + "/sprockets not available within the timeout: 0 of 1"),
                failed.getMessage());
        assertTrue(HTTP.getOptional(CRD, Map.of()).isPresent() && HTTP.getOptional(deployment, Map.of()).isPresent(),
                "what was applied stays for inspection");
        assertTrue(HTTP.getOptional(webhooks, Map.of()).isEmpty(), "no webhook registration for an operator that does not serve");
    }

    @Test
    void fieldsAnotherManagerOwnsNeedForce() throws Exception {
        rollOut.set(true);
        List<JsonObject> objects = ManifestFolder.read(folder);
        installer(Duration.ofSeconds(60), false).install(objects);
        HTTP.send("PATCH", deployment, Map.of("fieldManager", "someone-else", "force", "true"),
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"sprockets\"},\"spec\":{\"replicas\":3}}",
                "application/apply-patch+yaml");
        Installer.StepFailed conflict = assertThrows(Installer.StepFailed.class,
                () -> installer(Duration.ofSeconds(30), false).install(objects));
        assertEquals("workload", conflict.step());
        assertTrue(conflict.getMessage().contains("--force"), conflict.getMessage());
        installer(Duration.ofSeconds(60), true).install(objects);
        assertEquals(1, HTTP.get(deployment, Map.of()).getAsJsonObject("spec").get("replicas").getAsInt(), "taken back by force");
    }

    /**
     * Every object is checked before the first request: a name that breaks Kubernetes' rules in a
     * later object fails step 'check', and nothing is applied (the namespace an earlier object
     * lives in was created before this check existed). A folder is checked as it is read.
     */
    @Test
    void namesThatBreakKubernetesRulesAreRefusedBeforeAnyRequest(@TempDir Path hostile) throws Exception {
        String fresh = "fresh-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        JsonObject first = com.google.gson.JsonParser.parseString("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"name\":\"a\",\"namespace\":\"" + fresh + "\"}}").getAsJsonObject();
        for (String bad : List.of("{\"name\":\"../../secrets/x\",\"namespace\":\"" + namespace + "\"}",
                "{\"name\":\"x\",\"namespace\":\"../x\"}")) {
            JsonObject second = com.google.gson.JsonParser.parseString("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                    + "\"metadata\":" + bad + "}").getAsJsonObject();
            Installer.StepFailed failed = assertThrows(Installer.StepFailed.class,
                    () -> installer(Duration.ofSeconds(10), false).install(List.of(first, second)));
            assertEquals("check", failed.step());
            assertTrue(failed.getMessage().contains("object 2: metadata."), failed.getMessage());
            assertTrue(HTTP.getOptional("/api/v1/namespaces/" + fresh, Map.of()).isEmpty(), "nothing applied before the check");
            assertThrows(Installer.StepFailed.class, () -> installer(Duration.ofSeconds(10), false).uninstall(List.of(first, second)));
        }
        Files.writeString(hostile.resolve("kustomization.yaml"), "resources:\n  - objects.yaml\n");
        Files.writeString(hostile.resolve("objects.yaml"), "apiVersion: ../v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
        IllegalArgumentException unread = assertThrows(IllegalArgumentException.class, () -> ManifestFolder.read(hostile));
        assertTrue(unread.getMessage().startsWith("objects.yaml, document 1: apiVersion"), unread.getMessage());
    }

    private static String readCa() {
        try {
            return Files.readString(Path.of(Testbed.env().getProperty("TESTBED_CA_FILE")));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Installer installer(Duration timeout, boolean force) {
        return new Installer(HTTP, new Installer.Options(timeout, force, false), progress::add);
    }

    /** Marks the Deployment's current generation available once {@link #rollOut} is set; records registrations before that. */
    private void standInDeploymentController() {
        while (!stop.get()) {
            try {
                HTTP.getOptional(deployment, Map.of()).ifPresent(current -> {
                    if (!rollOut.get()) {
                        if (HTTP.getOptional(webhooks, Map.of()).isPresent()) {
                            violations.add("registered while the Deployment was not available");
                        }
                        return;
                    }
                    long generation = current.getAsJsonObject("metadata").get("generation").getAsLong();
                    JsonObject status = current.has("status") ? current.getAsJsonObject("status") : new JsonObject();
                    if (!status.has("observedGeneration") || status.get("observedGeneration").getAsLong() != generation) {
                        int replicas = current.getAsJsonObject("spec").get("replicas").getAsInt();
                        HTTP.send("PATCH", deployment + "/status", Map.of(), "{\"status\":{\"observedGeneration\":" + generation
                                + ",\"replicas\":" + replicas + ",\"updatedReplicas\":" + replicas + ",\"readyReplicas\":" + replicas
                                + ",\"availableReplicas\":" + replicas + "}}", "application/merge-patch+json");
                    }
                });
                // what cert-manager's CA injector does for the inject-ca-from annotation, a second after the registration
                HTTP.getOptional(webhooks, Map.of()).ifPresent(registration -> {
                    var client = registration.getAsJsonArray("webhooks").get(0).getAsJsonObject().getAsJsonObject("clientConfig");
                    String created = registration.getAsJsonObject("metadata").get("creationTimestamp").getAsString();
                    if (!client.has("caBundle") && java.time.Instant.parse(created).plusSeconds(1).isBefore(java.time.Instant.now())) {
                        HTTP.send("PATCH", webhooks, Map.of(), "[{\"op\":\"add\",\"path\":\"/webhooks/0/clientConfig/caBundle\",\"value\":\""
                                + java.util.Base64.getEncoder().encodeToString(INJECTED.getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                                + "\"}]", "application/json-patch+json");
                    }
                });
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // the Deployment went away between reads: look again
            }
        }
    }
}
