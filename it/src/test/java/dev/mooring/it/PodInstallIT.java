package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.examples.admission.DeploymentPolicy;
import dev.mooring.examples.admission.PodPolicy;
import dev.mooring.manifests.GenerateManifests;
import dev.mooring.manifests.Installer;
import dev.mooring.manifests.ManifestFolder;
import dev.mooring.test.Eventually;
import io.kubernetes.client.util.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admission-policies example installed as it ships, on a local API server that runs pods
 * (podman) and enforces RBAC: its image (the demo image with the example's EAR), the generated
 * manifests with self-managed certificates, the Installer; no stand-in controller. The pod runs
 * with the generated ServiceAccount's token and RBAC only, makes its certificate, and the API
 * server calls its webhooks through the generated Service: the mutating one defaults a
 * Deployment's team label, the validating one refuses a pod in a frozen namespace from its
 * Namespace cache. The manifests come from the classes the image holds (the example's and the
 * ConfigMap mirror of Mooring's demo EAR): with fewer, the pod's token lacks a permission. The uninstall leaves no pod, container or Secret.
 */
class PodInstallIT {

    private static final String DEMO = "localhost/mooring-demo:it";
    private static final String TAG = "localhost/mooring-policies:it";
    private static final String NAMESPACE = "policies";
    private static Path runDir;
    private static KubeHttp admin;
    private static Properties testbed;
    private static boolean imageBuilt;

    @BeforeAll
    static void up() throws Exception {
        runDir = Testbed.runDir().resolveSibling("testbed-pods");
        Properties env = Testbed.up(runDir, "--run-pods", "--authorization-mode=RBAC");
        testbed = env;
        admin = new KubeHttp(Config.fromConfig(env.getProperty("TESTBED_KUBECONFIG")));
    }

    @AfterAll
    static void down() throws Exception {
        Testbed.down(runDir);
    }

    /** The demo image, and on it the example's EAR in place of the demo's, in an image of its own. */
    private static synchronized void buildTheImage() throws Exception {
        if (imageBuilt) {
            return;
        }
        Path root = Path.of(System.getProperty("mooring.it.root"));
        Podman.build(root, root.resolve("liberty-config/Containerfile"), Podman.standInBase(root), DEMO);
        Path context = Files.createTempDirectory(runDir, "policies-image");
        Ears.exportWithPackage(context, "mooring.ear", DeploymentPolicy.class, NAMESPACE);
        Files.writeString(context.resolve("Containerfile"), "ARG BASE\nFROM " + DEMO + "\nCOPY mooring.ear /config/dropins/mooring.ear\n");
        Podman.build(context, context.resolve("Containerfile"), DEMO, TAG);
        imageBuilt = true;
    }

    /** The manifests of the example in {@code namespace}, from the classes the image holds, in a new folder. */
    private static Path manifests(String namespace, String certificates) throws Exception {
        return manifests(namespace, certificates, 1, 0);
    }

    /** Like {@link #manifests(String, String)}, with the default replicas (two with webhooks, under leader election). */
    private static Path defaultManifests(String namespace) throws Exception {
        return manifests(namespace, null, 0, 0);
    }

    /** Like {@link #manifests(String, String)}, with {@code replicas} pods sharing {@code shards} shards (0: no sharding). */
    private static Path manifests(String namespace, String certificates, int replicas, int shards) throws Exception {
        return manifests("policies", namespace, certificates, replicas, shards);
    }

    /** Like {@link #manifests(String, String, int, int)}, the operator named {@code name} (its cluster-wide objects too). */
    private static Path manifests(String name, String namespace, String certificates, int replicas, int shards) throws Exception {
        Path folder = Files.createTempDirectory(runDir, namespace + "-manifests");
        // Mooring's EAR brings the ConfigMap mirror, the example's package three policies
        Map<String, String> files = GenerateManifests.files(List.of(DeploymentPolicy.class, PodPolicy.class,
                dev.mooring.examples.admission.DatabasePolicy.class, dev.mooring.examples.mirror.ConfigMapMirror.class),
                GenerateManifests.Options.builder().name(name).namespace(namespace).image(TAG)
                        .replicas(replicas).certificates(certificates).shards(shards).build(), Map.of());
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.writeString(folder.resolve(file.getKey()), file.getValue());
        }
        return folder;
    }

    /**
     * Installed as a platform team installs, with kubectl itself (Debian's, of the API server's
     * release) and not mooring:install: {@code kubectl apply -f install.yaml} on a namespace that
     * does not exist (the file creates it), then the folder through an overlay that moves it to
     * {@code team-a} with a name prefix, {@code kubectl apply -k}. Each operator serves its own
     * webhooks there, through the API server: a Deployment of its namespace gets its team label, and a
     * change of the label is denied. Deleting both with kubectl leaves no webhook registration.
     */
    @Test
    void kubectlInstallsInstallYamlAndAnOverlayToAnotherNamespaceEachServingItsWebhooks() throws Exception {
        buildTheImage();
        // named apart from the other tests' operator: its cluster-wide objects (ClusterRoles, registrations) are its own
        Path folder = manifests("platform", "kubectl-first", null, 1, 0);
        Path overlay = Files.createDirectories(runDir.resolve("team-a-overlay"));
        Files.writeString(overlay.resolve("kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                + "namespace: team-a\nnamePrefix: team-a-\nresources:\n  - " + overlay.relativize(folder) + "\n");
        try {
            assertTrue(admin.getOptional("/api/v1/namespaces/kubectl-first", Map.of()).isEmpty(), "a namespace nobody made yet");
            kubectl("apply", "-f", folder.resolve("install.yaml").toString());
            kubectl("rollout", "status", "deployment/platform", "-n", "kubectl-first", "--timeout=240s");
            defaultsAndKeepsTheTeamLabel("kubectl-first");

            kubectl("apply", "-k", overlay.toString());
            kubectl("rollout", "status", "deployment/team-a-platform", "-n", "team-a", "--timeout=240s");
            defaultsAndKeepsTheTeamLabel("team-a");
            String registrations = kubectl("get", "validatingwebhookconfigurations,mutatingwebhookconfigurations", "-o", "name");
            for (String name : List.of("platform.kubectl-first.svc", "team-a-platform.team-a.svc")) {
                assertTrue(registrations.contains("validatingwebhookconfiguration.admissionregistration.k8s.io/" + name)
                        && registrations.contains("mutatingwebhookconfiguration.admissionregistration.k8s.io/" + name), registrations);
            }
        } finally {
            // the Namespace goes first and takes what is in it along: the rest may be gone already
            kubectl("delete", "-k", overlay.toString(), "--wait=false", "--ignore-not-found");
            kubectl("delete", "-f", folder.resolve("install.yaml").toString(), "--wait=false", "--ignore-not-found");
        }
        String left = kubectl("get", "validatingwebhookconfigurations,mutatingwebhookconfigurations", "-o", "name");
        assertTrue(!left.contains("platform"), "no registration of either is left to refuse requests: " + left);
    }

    /** In {@code namespace}, the operator's mutating webhook defaults a new Deployment's team label and its validating one keeps it. */
    private static void defaultsAndKeepsTheTeamLabel(String namespace) throws Exception {
        String deployments = "/apis/apps/v1/namespaces/" + namespace + "/deployments";
        var created = Eventually.await("the webhooks of " + namespace + " serving", Duration.ofSeconds(60), () -> {
            try {
                return admin.send("POST", deployments, Map.of(), "{\"metadata\":{\"name\":\"app\"},\"spec\":{\"replicas\":0,\"selector\":"
                        + "{\"matchLabels\":{\"app\":\"app\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"app\"}},\"spec\":"
                        + "{\"containers\":[{\"name\":\"c\",\"image\":\"none\"}]}}}}", "application/json");
            } catch (KubernetesException e) {
                return null; // its certificate not yet written, or the pod not yet in the Service's endpoints
            }
        }, answer -> answer != null);
        assertEquals("unassigned", created.getAsJsonObject("metadata").getAsJsonObject("labels").get(DeploymentPolicy.TEAM).getAsString(),
                created.toString());
        KubernetesException denied = org.junit.jupiter.api.Assertions.assertThrows(KubernetesException.class,
                () -> admin.send("PATCH", deployments + "/app", Map.of(), "{\"metadata\":{\"labels\":{\"" + DeploymentPolicy.TEAM
                        + "\":\"other\"}}}", "application/merge-patch+json"));
        assertTrue(denied.getMessage().contains("denied the request") && denied.getMessage().contains("is immutable"), denied.getMessage());
    }

    /** Runs the testbed's kubectl against it; its output, or a failure with what it printed. */
    private static String kubectl(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(testbed.getProperty("TESTBED_KUBECTL")));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("KUBECONFIG", testbed.getProperty("TESTBED_KUBECONFIG"));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(process.waitFor(5, java.util.concurrent.TimeUnit.MINUTES), "kubectl " + String.join(" ", args) + " did not end");
        assertEquals(0, process.exitValue(), "kubectl " + String.join(" ", args) + ":\n" + output);
        return output;
    }

    @Test
    void theAdmissionPoliciesRunAsTheirPodsAndTheApiServerCallsThemThroughAKillAndAPause() throws Exception {
        buildTheImage();
        Path folder = defaultManifests(NAMESPACE);
        List<String> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
        new Installer(admin, new Installer.Options(Duration.ofMinutes(4), false, false), progress::add)
                .install(ManifestFolder.read(folder));
        assertTrue(progress.contains("  available Deployment " + NAMESPACE + "/policies"), progress.toString());

        var pod = admin.get("/api/v1/namespaces/" + NAMESPACE + "/pods", Map.of("labelSelector", "app.kubernetes.io/name=policies"))
                .getAsJsonArray("items").get(0).getAsJsonObject();
        assertEquals("policies", pod.getAsJsonObject("spec").get("serviceAccountName").getAsString());
        assertTrue(pod.getAsJsonObject("status").getAsJsonArray("containerStatuses").get(0).getAsJsonObject().get("ready").getAsBoolean());

        // the mutating webhook (scoped to the operator's namespace, as its controllers are), through the Service: the team
        // label defaulted, the namespace having no team label; replicas 0, so that the pod runner starts nothing
        var deployment = admin.send("POST", "/apis/apps/v1/namespaces/" + NAMESPACE + "/deployments", Map.of(), "{\"metadata\":{\"name\":\"app\"},"
                + "\"spec\":{\"replicas\":0,\"selector\":{\"matchLabels\":{\"app\":\"app\"}},\"template\":{\"metadata\":{\"labels\":"
                + "{\"app\":\"app\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"none\"}]}}}}", "application/json");
        assertEquals("unassigned", deployment.getAsJsonObject("metadata").getAsJsonObject("labels").get(DeploymentPolicy.TEAM)
                .getAsString(), deployment.toString());
        // the validating webhook, answering from its Namespace cache
        admin.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"frozen\",\"labels\":{\"" + PodPolicy.FROZEN
                + "\":\"true\"}}}", "application/json");
        String denied = Eventually.await("a pod in the frozen namespace refused", Duration.ofSeconds(30), () -> {
            try {
                admin.send("POST", "/api/v1/namespaces/frozen/pods", Map.of(), "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":"
                        + "[{\"name\":\"c\",\"image\":\"none\"}]}}", "application/json");
                admin.send("DELETE", "/api/v1/namespaces/frozen/pods/p", Map.of(), null, null);
                return null;
            } catch (KubernetesException e) {
                return e.getMessage();
            }
        }, message -> message != null);
        assertTrue(denied.contains("denied the request") && denied.contains("frozen"), denied);

        // the default with webhooks: two pods, both serving them; one killed, then one paused, while a client writes
        assertEquals(2, pods().size(), "two replicas by default with webhooks");
        assertTrue(folder.resolve("deployment.yaml").toFile().exists()
                && Files.readString(folder.resolve("deployment.yaml")).contains("kind: PodDisruptionBudget"), "a disruption budget");
        try (Writes writes = new Writes(NAMESPACE)) {
            awaitWrites(writes, 10);
            List<String> containers = containers(NAMESPACE);
            assertEquals(2, containers.size(), containers.toString());
            int beforeKill = writes.count();
            long killedAt = writes.millis(System.nanoTime());
            Podman.podman("kill", containers.get(0));
            Eventually.await("the killed pod out of the endpoints", Duration.ofSeconds(60), () -> readyPods() == 1);
            long removedAt = writes.millis(System.nanoTime());
            awaitWrites(writes, beforeKill + 20);
            Eventually.await("both pods ready after the kill", Duration.ofMinutes(3), () -> readyPods() == 2);
            List<Writes.Call> killed = writes.failedSince(beforeKill);

            int beforePause = writes.count();
            List<String> running = containers(NAMESPACE);
            String paused = running.get(running.size() - 1);
            // SIGSTOP of the container's processes, as a hang: podman pause would show the container as not running,
            // which the pod runner (as a kubelet would not) takes for an exit
            signalContainer(paused, "STOP");
            long pausedAt = writes.millis(System.nanoTime());
            long unreadyAt;
            try {
                Eventually.await("the paused pod out of the endpoints", Duration.ofSeconds(30), () -> readyPods() == 1);
                unreadyAt = writes.millis(System.nanoTime());
                awaitWrites(writes, writes.count() + 20);
            } finally {
                signalContainer(paused, "CONT");
            }
            List<Writes.Call> pausedFailures = writes.failedSince(beforePause);
            // how soon is printed, not asserted (a busy machine makes it later without making it wrong): on a quiet machine
            // the runner sees an exit within a second or two; a paused pod's readiness probe takes it out after two failed
            // probes, 2 s apart, 2 s each (at most 6 s; the old probe, every 5 s with 3 s and 3 failures, took up to 18 s)
            System.out.println("[pod faults] kill: the pod left the endpoints after " + (removedAt - killedAt) + " ms, "
                    + (writes.count() - beforeKill) + " writes, failed " + killed
                    + "; pause: the pod left the endpoints after " + (unreadyAt - pausedAt) + " ms, failed " + pausedFailures);
            // a kill: only calls sent before the pod runner saw the exit and took it out of the endpoints, as the endpoints
            // controller does in a cluster; none after
            assertTrue(killed.stream().allMatch(call -> call.startedMillis() <= removedAt), "writes failed after the killed pod left the"
                    + " endpoints (" + (removedAt - killedAt) + " ms after the kill): " + killed);
            // a pause: only calls sent to the paused pod before its readiness probe took it out, each after the webhook's 5 s
            // timeout; none after
            assertTrue(pausedFailures.stream().allMatch(call -> call.startedMillis() <= unreadyAt), "writes failed after the paused"
                    + " pod left the endpoints (" + (unreadyAt - pausedAt) + " ms after the pause): " + pausedFailures);
        }

        new Installer(admin, new Installer.Options(Duration.ofMinutes(2), false, false), line -> { }).uninstall(ManifestFolder.read(folder));
        Eventually.await("no pod, container or Secret of the operator left", Duration.ofSeconds(60), () ->
                admin.get("/api/v1/namespaces/" + NAMESPACE + "/pods", Map.of()).getAsJsonArray("items").isEmpty()
                        && admin.getOptional("/api/v1/namespaces/" + NAMESPACE + "/secrets/policies-tls", Map.of()).isEmpty()
                        && Podman.podman("ps", "-a", "--filter", "label=testbed.mooring.dev/dir=" + runDir.toAbsolutePath().resolve("pods"),
                                "--format", "{{.Labels}}").lines()
                                .noneMatch(labels -> labels.contains("testbed.mooring.dev/pod:" + NAMESPACE + "/")),
                gone -> gone);
    }

    /**
     * The sharded form as generated ({@code --replicas 2 --shards 4}): two pods with the generated
     * ServiceAccount's token and RBAC only, both ready, each holding two shard Leases and its
     * member Lease; the webhook answers through the Service; the uninstall leaves no pod.
     */
    @Test
    void theShardedFormRunsTwoPodsThatSplitTheShardLeases() throws Exception {
        buildTheImage();
        String namespace = "policies-sharded";
        Path folder = manifests(namespace, null, 2, 4);
        List<String> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
        new Installer(admin, new Installer.Options(Duration.ofMinutes(4), false, false), progress::add)
                .install(ManifestFolder.read(folder));
        assertTrue(progress.contains("  available Deployment " + namespace + "/policies"), progress.toString());
        Map<String, Integer> held = Eventually.await("two pods holding two shards each", Duration.ofSeconds(60), () -> {
            Map<String, Integer> byHolder = new java.util.TreeMap<>();
            int members = 0;
            for (var item : admin.get("/apis/coordination.k8s.io/v1/namespaces/" + namespace + "/leases", Map.of())
                    .getAsJsonArray("items")) {
                String name = item.getAsJsonObject().getAsJsonObject("metadata").get("name").getAsString();
                var holder = item.getAsJsonObject().getAsJsonObject("spec").get("holderIdentity");
                if (name.contains("-shard-") && holder != null && !holder.getAsString().isEmpty()) {
                    byHolder.merge(holder.getAsString(), 1, Integer::sum);
                } else if (name.contains("-member-")) {
                    members++;
                }
            }
            return members == 2 ? byHolder : Map.<String, Integer>of();
        }, byHolder -> byHolder.size() == 2 && byHolder.values().stream().allMatch(count -> count == 2));
        assertEquals(2, held.size(), held.toString());
        var pods = admin.get("/api/v1/namespaces/" + namespace + "/pods", Map.of("labelSelector", "app.kubernetes.io/name=policies"))
                .getAsJsonArray("items");
        assertEquals(2, pods.size());
        for (var pod : pods) {
            assertTrue(pod.getAsJsonObject().getAsJsonObject("status").getAsJsonArray("containerStatuses").get(0).getAsJsonObject()
                    .get("ready").getAsBoolean(), "both replicas ready: " + pod);
        }
        var deployment = admin.send("POST", "/apis/apps/v1/namespaces/" + namespace + "/deployments", Map.of(),
                "{\"metadata\":{\"name\":\"app\"},\"spec\":{\"replicas\":0,\"selector\":{\"matchLabels\":{\"app\":\"app\"}},"
                + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"app\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
                + "\"image\":\"none\"}]}}}}", "application/json");
        assertEquals("unassigned", deployment.getAsJsonObject("metadata").getAsJsonObject("labels").get(DeploymentPolicy.TEAM)
                .getAsString(), deployment.toString());
        new Installer(admin, new Installer.Options(Duration.ofMinutes(2), false, false), line -> { }).uninstall(ManifestFolder.read(folder));
        Eventually.await("no pod of the operator left", Duration.ofSeconds(60), () ->
                admin.get("/api/v1/namespaces/" + namespace + "/pods", Map.of()).getAsJsonArray("items").isEmpty(), gone -> gone);
    }

    /**
     * The cert-manager mode on the same server: the manifests' Issuer and Certificate, and a
     * stand-in for cert-manager (no image registry here) that does what its contract says: it
     * issues the Certificate into its Secret and injects the CA into the configurations that name
     * it in {@code cert-manager.io/inject-ca-from}. The pod waits for the Secret (its volume is not
     * optional), starts once it exists, and the API server calls its webhook with the injected CA.
     */
    @Test
    void withCertManagerThePodWaitsForItsSecretAndTheInjectedCaIsTrusted() throws Exception {
        buildTheImage();
        String namespace = "policies-cm";
        for (String kind : List.of("Issuer", "Certificate")) {
            String plural = kind.toLowerCase(java.util.Locale.ROOT) + "s";
            if (admin.getOptional("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + plural + ".cert-manager.io", Map.of())
                    .isEmpty()) {
                admin.send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", Map.of(), "{\"metadata\":{\"name\":\""
                        + plural + ".cert-manager.io\"},\"spec\":{\"group\":\"cert-manager.io\",\"scope\":\"Namespaced\",\"names\":{"
                        + "\"plural\":\"" + plural + "\",\"singular\":\"" + kind.toLowerCase(java.util.Locale.ROOT) + "\",\"kind\":\""
                        + kind + "\"},\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":"
                        + "{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}}}]}}", "application/json");
            }
        }
        Eventually.await("the stand-in cert-manager CRDs served", Duration.ofSeconds(30), () -> admin.getOptional(
                "/apis/cert-manager.io/v1/namespaces/default/certificates", Map.of()).isPresent());
        Path folder = manifests(namespace, "cert-manager");
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread certManager = new Thread(() -> standInCertManager(namespace, running), "stand-in cert-manager");
        certManager.start();
        try {
            List<String> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
            new Installer(admin, new Installer.Options(Duration.ofMinutes(4), false, false), progress::add)
                    .install(ManifestFolder.read(folder));
            assertTrue(progress.contains("  applied Certificate " + namespace + "/policies-serving"), progress.toString());
            assertTrue(progress.stream().anyMatch(line -> line.startsWith("  CA bundle in MutatingWebhookConfiguration")),
                    progress.toString());
            var deployment = admin.send("POST", "/apis/apps/v1/namespaces/" + namespace + "/deployments", Map.of(),
                    "{\"metadata\":{\"name\":\"app\"},\"spec\":{\"replicas\":0,\"selector\":{\"matchLabels\":{\"app\":\"app\"}},"
                    + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"app\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
                    + "\"image\":\"none\"}]}}}}", "application/json");
            assertEquals("unassigned", deployment.getAsJsonObject("metadata").getAsJsonObject("labels").get(DeploymentPolicy.TEAM)
                    .getAsString(), "the mutating webhook answered over the certificate cert-manager issued");
            String events = admin.get("/api/v1/namespaces/" + namespace + "/events", Map.of()).toString();
            assertTrue(events.contains("FailedMount") && events.contains("policies-tls"), "the pod waited for its Secret: " + events);
            new Installer(admin, new Installer.Options(Duration.ofMinutes(2), false, false), line -> { })
                    .uninstall(ManifestFolder.read(folder));
        } finally {
            running.set(false);
            certManager.join(10_000);
        }
    }

    /**
     * What cert-manager would do in {@code namespace}, 5 s after each Certificate appears (so that
     * the pod, made meanwhile, waits for the Secret):
     * issue it (a CA and a serving certificate for its dnsNames) into its {@code secretName}, and
     * write the Secret's {@code ca.crt} into every webhook of the configurations whose
     * {@code cert-manager.io/inject-ca-from} names it.
     */
    /**
     * The pod runner is the Job controller too: a Job's pods run one after the other up to its
     * completions, each Succeeded with its exit code 0, and the Job's status follows them as
     * Kubernetes' Job controller writes it (and as the API server validates it); a Job whose pods
     * fail past its backoffLimit ends Failed.
     */
    @Test
    void aJobsPodsRunToCompletionAndItsStatusFollowsThem() throws Exception {
        String image = Podman.standInBase(Path.of(System.getProperty("mooring.it.root")));
        String namespace = "jobs";
        admin.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + namespace + "\"}}", "application/json");
        String jobs = "/apis/batch/v1/namespaces/" + namespace + "/jobs";
        for (String[] job : List.of(new String[] {"twice", "exit 0", "2", "6"}, new String[] {"failing", "exit 3", "1", "1"})) {
            admin.send("POST", jobs, Map.of(), "{\"metadata\":{\"name\":\"" + job[0] + "\"},\"spec\":{\"completions\":" + job[2]
                    + ",\"backoffLimit\":" + job[3] + ",\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"work\","
                    + "\"image\":\"" + image + "\",\"command\":[\"sh\",\"-c\",\"" + job[1] + "\"]}]}}}}", "application/json");
        }
        var twice = Eventually.await("Job twice to complete", Duration.ofMinutes(2), () -> admin.get(jobs + "/twice", Map.of()),
                job -> job.getAsJsonObject("status").has("completionTime"));
        var status = twice.getAsJsonObject("status");
        assertEquals(2, count(status, "succeeded"), status.toString());
        assertEquals(0, count(status, "active"), status.toString());
        assertTrue(status.has("startTime"), status.toString());
        assertEquals(List.of("SuccessCriteriaMet", "Complete"), conditionTypes(status), status.toString());
        var pods = admin.get("/api/v1/namespaces/" + namespace + "/pods", Map.of("labelSelector", "job-name=twice")).getAsJsonArray("items");
        assertEquals(2, pods.size(), pods.toString());
        for (var pod : pods) {
            assertEquals("Succeeded", pod.getAsJsonObject().getAsJsonObject("status").get("phase").getAsString(), pod.toString());
        }

        var failing = Eventually.await("Job failing to fail", Duration.ofMinutes(2), () -> admin.get(jobs + "/failing", Map.of()),
                job -> conditionTypes(job.getAsJsonObject("status")).contains("Failed"));
        status = failing.getAsJsonObject("status");
        assertEquals(2, count(status, "failed"), "backoffLimit 1: the second failure ends it: " + status);
        assertEquals(List.of("FailureTarget", "Failed"), conditionTypes(status), status.toString());
        admin.send("DELETE", "/api/v1/namespaces/" + namespace, Map.of(), null, null);
    }

    /** A Job status counter; Kubernetes leaves out the ones at zero. */
    private static int count(com.google.gson.JsonObject status, String counter) {
        return status.has(counter) ? status.get(counter).getAsInt() : 0;
    }

    private static List<String> conditionTypes(com.google.gson.JsonObject status) {
        if (!status.has("conditions")) {
            return List.of();
        }
        List<String> types = new java.util.ArrayList<>();
        for (var condition : status.getAsJsonArray("conditions")) {
            types.add(condition.getAsJsonObject().get("type").getAsString());
        }
        return types;
    }

    private static void standInCertManager(String namespace, java.util.concurrent.atomic.AtomicBoolean running) {
        while (running.get()) {
            try {
                for (var item : admin.get("/apis/cert-manager.io/v1/namespaces/" + namespace + "/certificates", Map.of())
                        .getAsJsonArray("items")) {
                    var certificate = item.getAsJsonObject();
                    var spec = certificate.getAsJsonObject("spec");
                    String name = certificate.getAsJsonObject("metadata").get("name").getAsString();
                    String secretPath = "/api/v1/namespaces/" + namespace + "/secrets/" + spec.get("secretName").getAsString();
                    String created = certificate.getAsJsonObject("metadata").get("creationTimestamp").getAsString();
                    if (admin.getOptional(secretPath, Map.of()).isEmpty()
                            && java.time.Instant.parse(created).plusSeconds(5).isBefore(java.time.Instant.now())) {
                        List<String> names = new java.util.ArrayList<>();
                        spec.getAsJsonArray("dnsNames").forEach(dns -> names.add(dns.getAsString()));
                        var ca = dev.mooring.engine.certificates.CertificateAuthority.newCa("stand-in cert-manager", java.time.Instant.now(),
                                Duration.ofDays(1));
                        var serving = dev.mooring.engine.certificates.CertificateAuthority.newServing(ca, names, java.time.Instant.now(),
                                Duration.ofDays(1));
                        java.util.Base64.Encoder base64 = java.util.Base64.getEncoder();
                        admin.send("POST", "/api/v1/namespaces/" + namespace + "/secrets", Map.of(), "{\"metadata\":{\"name\":\""
                                + spec.get("secretName").getAsString() + "\"},\"type\":\"kubernetes.io/tls\",\"data\":{\"tls.crt\":\""
                                + base64.encodeToString(serving.certificatePem()) + "\",\"tls.key\":\"" + base64.encodeToString(serving.keyPem())
                                + "\",\"ca.crt\":\"" + base64.encodeToString(ca.certificatePem()) + "\"}}", "application/json");
                    }
                    var secret = admin.getOptional(secretPath, Map.of());
                    if (secret.isPresent()) {
                        inject(namespace + "/" + name, secret.get().getAsJsonObject("data").get("ca.crt").getAsString());
                    }
                }
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // the next round tries again
            }
        }
    }

    private static void inject(String certificate, String caBundle) {
        for (String plural : List.of("validatingwebhookconfigurations", "mutatingwebhookconfigurations")) {
            for (var item : admin.get("/apis/admissionregistration.k8s.io/v1/" + plural, Map.of()).getAsJsonArray("items")) {
                var configuration = item.getAsJsonObject();
                var annotations = configuration.getAsJsonObject("metadata").getAsJsonObject("annotations");
                if (annotations == null || !annotations.has("cert-manager.io/inject-ca-from")
                        || !certificate.equals(annotations.get("cert-manager.io/inject-ca-from").getAsString())) {
                    continue;
                }
                boolean changed = false;
                for (var webhook : configuration.getAsJsonArray("webhooks")) {
                    var client = webhook.getAsJsonObject().getAsJsonObject("clientConfig");
                    if (!client.has("caBundle") || !caBundle.equals(client.get("caBundle").getAsString())) {
                        client.addProperty("caBundle", caBundle);
                        changed = true;
                    }
                }
                if (changed) {
                    admin.send("PUT", "/apis/admissionregistration.k8s.io/v1/" + plural + "/"
                            + configuration.getAsJsonObject("metadata").get("name").getAsString(), Map.of(), configuration.toString(),
                            "application/json");
                }
            }
        }
    }

    /** The operator's pods in {@link #NAMESPACE}. */
    private static List<com.google.gson.JsonElement> pods() {
        List<com.google.gson.JsonElement> pods = new java.util.ArrayList<>();
        admin.get("/api/v1/namespaces/" + NAMESPACE + "/pods", Map.of("labelSelector", "app.kubernetes.io/name=policies"))
                .getAsJsonArray("items").forEach(pods::add);
        return pods;
    }

    /** How many of the operator's pods are ready. */
    private static long readyPods() {
        return pods().stream().filter(pod -> {
            var statuses = pod.getAsJsonObject().getAsJsonObject("status").getAsJsonArray("containerStatuses");
            return statuses != null && !statuses.isEmpty() && statuses.get(0).getAsJsonObject().get("ready").getAsBoolean();
        }).count();
    }

    /** The running containers of this testbed's pods in {@code namespace}, by name, oldest first. */
    private static List<String> containers(String namespace) throws Exception {
        return Podman.podContainers(runDir, namespace + "/");
    }

    /** Sends {@code signal} to every process of container {@code name}. */
    private static void signalContainer(String name, String signal) throws Exception {
        long pid = Long.parseLong(Podman.podman("inspect", "-f", "{{.State.Pid}}", name).trim());
        List<Long> pids = new java.util.ArrayList<>(List.of(pid));
        ProcessHandle.of(pid).ifPresent(root -> root.descendants().forEach(child -> pids.add(child.pid())));
        List<String> command = new java.util.ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(each -> command.add(Long.toString(each)));
        assertEquals(0, new ProcessBuilder(command).inheritIO().start().waitFor(), String.join(" ", command));
    }

    private static void awaitWrites(Writes writes, int count) {
        Eventually.await(count + " writes", Duration.ofMinutes(2), () -> writes.count() >= count);
    }

    /**
     * One client creating Deployments (replicas 0) one after another, each admitted by the
     * operator's mutating webhook (failurePolicy Fail); every call kept with its outcome.
     */
    private static final class Writes implements AutoCloseable {
        record Call(int index, long startedMillis, long tookMillis, String failure) {
        }

        private final long origin = System.nanoTime();
        private final List<Call> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        private final Thread thread;

        Writes(String namespace) {
            thread = new Thread(() -> {
                for (int i = 0; running.get() && i < 10_000; i++) {
                    long start = System.nanoTime();
                    String failure = null;
                    try {
                        admin.send("POST", "/apis/apps/v1/namespaces/" + namespace + "/deployments", Map.of(),
                                "{\"metadata\":{\"name\":\"w-" + i + "\"},\"spec\":{\"replicas\":0,\"selector\":{\"matchLabels\":"
                                + "{\"app\":\"w\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"w\"}},\"spec\":{\"containers\":"
                                + "[{\"name\":\"c\",\"image\":\"none\"}]}}}}", "application/json");
                    } catch (RuntimeException e) {
                        failure = e.getMessage();
                    }
                    calls.add(new Call(i, millis(start), (System.nanoTime() - start) / 1_000_000, failure));
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "pod-fault-writes");
            thread.start();
        }

        long millis(long nanoTime) {
            return (nanoTime - origin) / 1_000_000;
        }

        int count() {
            return calls.size();
        }

        List<Call> failedSince(int index) {
            return calls.stream().skip(index).filter(call -> call.failure() != null).toList();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(60_000);
        }
    }
}
