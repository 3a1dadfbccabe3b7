package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.examples.admission.DeploymentPolicy;
import dev.mooring.examples.snippets.Widget;
import dev.mooring.examples.snippets.WidgetController;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: the folder for the classes and options given; wrong arguments are named. */
class GenerateManifestsTest {

    @TempDir
    Path dir;

    /**
     * With webhooks and no --replicas: two pods under leader election on a Lease named after the
     * operator, a disruption budget, and a readiness probe that takes a hung pod out of the
     * Service's endpoints within 6 s; --replicas 1 goes back to one pod; without webhooks one.
     */
    @Test
    void webhooksGetTwoReplicasByDefaultAndOneOnRequest() throws Exception {
        List<String> base = List.of("--name", "widgets", "--namespace", "operators", "--image", "example/widgets:1");
        List<String> classes = List.of(Widget.class.getName(), WidgetController.class.getName(), DeploymentPolicy.class.getName());
        Map<String, String> files = GenerateManifests.generate(concat(base, classes), Map.of());
        String deployment = files.get("deployment.yaml");
        assertTrue(deployment.contains("replicas: 2") && deployment.contains("kind: PodDisruptionBudget"), deployment);
        assertTrue(deployment.contains("name: MOORING_LEADER_ELECTION_ENABLED") && deployment.contains("value: widgets"), deployment);
        assertTrue(files.get("rbac.yaml").contains("- leases"), "leader election rights");
        String readiness = deployment.substring(deployment.indexOf("readinessProbe:"));
        readiness = readiness.substring(0, readiness.indexOf("failureThreshold") + 20);
        for (String expected : List.of("path: /health/ready", "periodSeconds: 2", "timeoutSeconds: 2", "failureThreshold: 2")) {
            assertTrue(readiness.contains(expected), expected + " in " + readiness);
        }

        String one = GenerateManifests.generate(concat(concat(base, List.of("--replicas", "1")), classes), Map.of()).get("deployment.yaml");
        assertTrue(one.contains("replicas: 1") && !one.contains("PodDisruptionBudget") && !one.contains("MOORING_LEADER_ELECTION"), one);
        String withoutWebhooks = GenerateManifests.generate(concat(base, classes.subList(0, 2)), Map.of()).get("deployment.yaml");
        assertTrue(withoutWebhooks.contains("replicas: 1") && !withoutWebhooks.contains("PodDisruptionBudget"), withoutWebhooks);
        assertThrows(IllegalArgumentException.class, () -> GenerateManifests.generate(concat(concat(base, List.of("--replicas", "-1")),
                classes), Map.of()));
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new java.util.ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    @Test
    void theWholeFolderForAnOperatorWithWebhooks() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.crt"), "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        Map<String, String> files = GenerateManifests.generate(List.of("--name", "widgets", "--namespace", "operators", "--image",
                "example/widgets:1", "--replicas", "2", "--lease-name", "widgets", "--ca-file", ca.toString(), Widget.class.getName(),
                WidgetController.class.getName(), DeploymentPolicy.class.getName()), Map.of());
        assertEquals(List.of("crds.yaml", "namespace.yaml", "rbac.yaml", "deployment.yaml", "service.yaml", "webhooks.yaml",
                "kustomizeconfig.yaml", "kustomization.yaml", "install.yaml"),
                List.copyOf(files.keySet()));
        String deployment = files.get("deployment.yaml");
        for (String expected : List.of("replicas: 2", "image: example/widgets:1", "serviceAccountName: widgets",
                "fieldPath: metadata.namespace", "path: /health/started", "path: /health/live", "path: /health/ready",
                "runAsNonRoot: true", "secretName: widgets-tls", "mountPath: /var/run/mooring/tls", "value: widgets")) {
            assertTrue(deployment.contains(expected), expected + " in\n" + deployment);
        }
        assertTrue(files.get("service.yaml").contains("port: 443") && files.get("service.yaml").contains("targetPort: https"));
        assertTrue(files.get("install.yaml").contains("name: widgets.operators.svc") && files.get("webhooks.yaml").contains("port: 443"),
                files.get("install.yaml"));
        assertTrue(files.get("webhooks.yaml").contains("name: widgets.$(OPERATOR_NAMESPACE).svc"), "the folder's copy follows an overlay: "
                + files.get("webhooks.yaml"));
        assertTrue(files.get("kustomization.yaml").contains("  - webhooks.yaml\n"), files.get("kustomization.yaml"));
        assertTrue(files.get("rbac.yaml").contains("- leases"), "leader election rights with a Lease");
        // two replicas: a disruption budget keeps one; the recommended labels, the selector by name alone
        assertTrue(deployment.contains("kind: PodDisruptionBudget") && deployment.contains("minAvailable: 1"), deployment);
        for (String label : List.of("app.kubernetes.io/name: widgets", "app.kubernetes.io/instance: widgets",
                "app.kubernetes.io/component: operator", "app.kubernetes.io/part-of: widgets", "app.kubernetes.io/managed-by: mooring")) {
            assertTrue(deployment.contains(label) && files.get("service.yaml").contains(label), label);
        }
        // install.yaml: the same documents as the folder, in the same order, and not listed in the kustomization
        assertTrue(!files.get("kustomization.yaml").contains("install.yaml"), files.get("kustomization.yaml"));
        assertEquals(ManifestFolder.readFile(write(files).resolve("install.yaml")), ManifestFolder.read(write(files)),
                "the folder, its variables resolved as kustomize resolves them without an overlay, is install.yaml");
    }

    /** The files written to a fresh folder. */
    private Path write(Map<String, String> files) throws java.io.IOException {
        Path folder = Files.createTempDirectory(dir, "manifests");
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.writeString(folder.resolve(file.getKey()), file.getValue());
        }
        return folder;
    }

    /**
     * In every mode the folder is install.yaml once its variables are resolved; an overlay that moves
     * the ServiceAccount (as kustomize's {@code namespace:} does) moves every name and selector
     * that names the operator's namespace, and nothing is left naming the old one but what
     * kustomize itself moves (objects' namespaces, the webhooks' Service).
     */
    @Test
    void theFolderIsInstallYamlAndFollowsTheOperatorsNamespaceInEveryMode() throws Exception {
        List<String> classes = List.of(Widget.class.getName(), WidgetController.class.getName(), DeploymentPolicy.class.getName(),
                dev.mooring.examples.admission.PodPolicy.class.getName());
        List<String> base = List.of("--name", "widgets", "--namespace", "operators", "--image", "example/widgets:1", "--monitoring");
        for (List<String> mode : List.of(List.<String>of(), List.of("--certificates", "cert-manager"), List.of("--secure-metrics"),
                List.of("--inject-ca-from", "operators/made-elsewhere"))) {
            Map<String, String> files = GenerateManifests.generate(concat(concat(base, mode), classes), Map.of());
            Path folder = write(files);
            assertEquals(ManifestFolder.readFile(folder.resolve("install.yaml")), ManifestFolder.read(folder), mode.toString());

            // what kustomize's namespace transformer does to the ServiceAccount, the variables' source
            Path rbac = folder.resolve("rbac.yaml");
            Files.writeString(rbac, Files.readString(rbac).replaceFirst("(kind: ServiceAccount\nmetadata:\n  name: widgets\n  namespace:) operators",
                    "$1 team-a"));
            String moved = new com.google.gson.Gson().toJson(ManifestFolder.read(folder).stream()
                    .filter(object -> !object.get("kind").getAsString().equals("Namespace")).toList())
                    .replace("\"namespace\":\"operators\"", "").replace("\"-operators\"", "");
            assertTrue(!moved.contains("operators\"") && !moved.contains("operators.svc") && !moved.contains("operators:")
                    && !moved.contains("'operators'"), mode + ": the old namespace is left in " + moved);
            assertTrue(moved.contains("widgets.team-a.svc") && moved.contains("system:serviceaccount:team-a:widgets"), mode + ": " + moved);
            if (mode.contains("operators/made-elsewhere")) {
                assertTrue(moved.contains("operators/made-elsewhere"), "a Certificate made elsewhere stays where it is");
            }
        }
    }

    @Test
    void theNamespaceComesFirstUnlessItIsLeftOut() throws Exception {
        List<String> args = List.of("--name", "widgets", "--namespace", "team-a", "--image", "example/widgets:1", Widget.class.getName(),
                WidgetController.class.getName());
        Map<String, String> files = GenerateManifests.generate(args, Map.of());
        assertEquals("---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n    app.kubernetes.io/part-of: widgets\n"
                + "    app.kubernetes.io/managed-by: mooring\n", files.get("namespace.yaml"));
        assertTrue(files.get("install.yaml").indexOf("kind: Namespace") < files.get("install.yaml").indexOf("kind: ServiceAccount"));
        assertTrue(files.get("install.yaml").indexOf("kind: CustomResourceDefinition") < files.get("install.yaml").indexOf("kind: Namespace"));
        Map<String, String> without = GenerateManifests.generate(concat(List.of("--without-namespace"), args), Map.of());
        assertTrue(!without.containsKey("namespace.yaml") && !without.get("install.yaml").contains("kind: Namespace"), without.keySet().toString());
    }

    @Test
    void oneReplicaHasNoDisruptionBudget() throws Exception {
        Map<String, String> files = GenerateManifests.generate(List.of("--name", "widgets", "--namespace", "operators", "--image",
                "example/widgets:1", WidgetController.class.getName()), Map.of());
        assertTrue(!files.get("deployment.yaml").contains("PodDisruptionBudget"), files.get("deployment.yaml"));
    }

    @Test
    void withoutWebhooksThereIsNoServiceNorRegistration() throws Exception {
        Map<String, String> files = GenerateManifests.generate(List.of("--name", "widgets", "--namespace", "operators", "--image",
                "example/widgets:1", "--without-webhooks", WidgetController.class.getName(), DeploymentPolicy.class.getName()), Map.of());
        assertEquals(List.of("namespace.yaml", "rbac.yaml", "deployment.yaml", "kustomizeconfig.yaml", "kustomization.yaml", "install.yaml"),
                List.copyOf(files.keySet()));
        assertTrue(!files.get("deployment.yaml").contains("webhook-tls"), files.get("deployment.yaml"));
    }

    @Test
    void withoutAnImageTheWebhooksAreLeftOutAndTheFolderSaysSo() throws Exception {
        Map<String, String> files = GenerateManifests.generate(List.of("--name", "widgets", "--namespace", "operators",
                WidgetController.class.getName(), DeploymentPolicy.class.getName()), Map.of());

        assertEquals(List.of("namespace.yaml", "rbac.yaml", "kustomizeconfig.yaml", "kustomization.yaml", "install.yaml"),
                List.copyOf(files.keySet()),
                "no registration that nothing would answer");
        assertEquals(List.of("the admission webhooks of [DeploymentPolicy] are left out: without --image (Maven:"
                + " mooring.manifests.image) there is no Deployment to serve them"), GenerateManifests.notes(files));
        assertTrue(files.get("kustomization.yaml").startsWith("# the admission webhooks"), files.get("kustomization.yaml"));
        assertTrue(!files.get("rbac.yaml").contains("validatingwebhookconfigurations"), "no rights for registrations it does not make");
    }

    @Test
    void onStandardOutputEveryObjectComesWithItsValuesReadyForKubectlApply() throws Exception {
        Map<String, String> files = GenerateManifests.generate(List.of("--name", "widgets", "--namespace", "operators",
                WidgetController.class.getName()), Map.of());

        String stream = GenerateManifests.stream(files);

        assertEquals(files.get("install.yaml"), stream);
        assertTrue(!stream.contains("kind: Kustomization") && !stream.contains("$(OPERATOR_"), stream);
    }

    @Test
    void shardedReplicasGetTheShardCountAndTheRightsOnEveryLeaseOfTheirNamespace() throws Exception {
        Map<String, String> files = GenerateManifests.generate(List.of("--name", "widgets", "--namespace", "operators", "--image",
                "example/widgets:1", "--replicas", "3", "--shards", "8", Widget.class.getName(), WidgetController.class.getName()),
                Map.of());
        String deployment = files.get("deployment.yaml");
        assertTrue(deployment.contains("replicas: 3"), deployment);
        assertTrue(java.util.regex.Pattern.compile("MOORING_SHARDING_SHARDS\\s+value: ['\"]?8['\"]?\\s").matcher(deployment).find(),
                deployment);
        assertTrue(!deployment.contains("MOORING_LEADER_ELECTION_ENABLED"), "no election with shards:\n" + deployment);
        String rbac = files.get("rbac.yaml");
        int leases = rbac.indexOf("- leases");
        assertTrue(leases > 0, rbac);
        String rule = rbac.substring(rbac.lastIndexOf("- apiGroups", leases), rbac.indexOf("verbs", leases) + 80);
        for (String verb : List.of("create", "delete", "get", "list", "update")) {
            assertTrue(rule.contains("- " + verb), verb + " on leases in\n" + rule);
        }
        assertTrue(!rule.contains("resourceNames"), "the member Leases' names are not known in advance:\n" + rule);
        String message = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> GenerateManifests.generate(List.of("--name", "w", "--namespace", "n", "--shards", "300", Widget.class.getName()),
                        Map.of())).getMessage();
        assertTrue(message.contains("--shards (Maven: mooring.manifests.shards) must be from 0 to 256"), message);
        for (String shards : List.of("-1", "257")) {
            assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> GenerateManifests.generate(List.of("--name", "w", "--namespace", "n", "--shards", shards, Widget.class.getName()),
                            Map.of())).getMessage().contains("must be from 0 to 256, got " + shards));
        }
        GenerateManifests.generate(List.of("--name", "w", "--namespace", "n", "--image", "example/widgets:1", "--replicas", "2",
                "--shards", "256", Widget.class.getName(), WidgetController.class.getName()), Map.of()); // the most there can be
        assertEquals("--image (Maven: mooring.manifests.image) needs a value", org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> GenerateManifests.generate(List.of("--name", "w", "--image"), Map.of())).getMessage());
    }

    /** The command line, as a process: a refusal is one line on standard error and exit status 2, nothing on standard output. */
    @Test
    void theCommandExitsWithStatus2NamingWhatIsWrong() throws Exception {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), GenerateManifests.class.getName(),
                "--name", "w", "--namespace", "n", "--image", "i", "--ca-file", "ca.crt", Widget.class.getName()).start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the command ended");
        assertEquals(2, process.exitValue(), err);
        assertEquals("", out);
        assertTrue(err.startsWith("GenerateManifests: --ca-file (Maven: mooring.manifests.ca-file) names the CA of webhooks, but none"),
                err);
    }

    /** The webhooks command, as a process: the configurations alone on standard output; a refusal names its argument. */
    @Test
    void theWebhooksCommandPrintsTheConfigurationsAloneAndNamesAWrongArgument() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.crt"), "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        Process process = generator(GenerateManifests.WEBHOOKS, "--name", "widgets.example.com", "--service", "widgets",
                "--namespace", "operators", "--ca-file", ca.toString(), DeploymentPolicy.class.getName());
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the command ended");
        assertEquals(0, process.exitValue(), new String(process.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(out.contains("kind: ValidatingWebhookConfiguration") && out.contains("name: widgets.example.com"), out);
        assertTrue(!out.contains("kind: Deployment") && !out.contains("kind: CustomResourceDefinition"), "the configurations alone: " + out);

        Process refused = generator(GenerateManifests.WEBHOOKS, "--name", "widgets.example.com", "--namespace", "operators",
                DeploymentPolicy.class.getName());
        String err = new String(refused.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(refused.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the command ended");
        assertEquals(2, refused.exitValue(), err);
        assertTrue(err.startsWith("GenerateManifests webhooks: --name, --service and --namespace are required"), err);
    }

    private static Process generator(String... args) throws java.io.IOException {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), GenerateManifests.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).start();
    }

    @Test
    void wrongArgumentsAreNamed() {
        Map<List<String>, String> wrong = Map.of(
                List.of("java.lang.String"), "is a @CustomResource",
                List.of("--image", "x", Widget.class.getName()), "--image (Maven: mooring.manifests.image) needs --name",
                List.of("--name", "w", Widget.class.getName()), "--namespace (Maven: mooring.manifests.namespace) go together",
                List.of("--frobnicate", "x"), "unknown option --frobnicate",
                List.of("--name", "w", "--namespace", "n", "--image", "i", "--replicas", "2", Widget.class.getName()), "--lease-name",
                List.of("--name", "w", "--namespace", "n", "--image", "i", "--replicas", "two", Widget.class.getName()), "'two'",
                List.of("--name", "w", "--namespace", "n", "--image", "i", "--inject-ca-from", "x", DeploymentPolicy.class.getName()),
                        "namespace/name",
                List.of("--name", "w", "--namespace", "n", "--image", "i", "--ca-file", "ca.crt", Widget.class.getName()),
                        "--ca-file (Maven: mooring.manifests.ca-file) names the CA of webhooks, but none of the classes declares one");
        Map<List<String>, String> certificates = Map.of(
                List.of("--name", "w", "--namespace", "n", "--certificates", "vault", DeploymentPolicy.class.getName()),
                        "--certificates (Maven: mooring.manifests.certificates) must be self-managed or cert-manager, not 'vault'",
                List.of("--name", "w", "--namespace", "n", "--image", "i", "--certificates", "cert-manager", "--issuer", "vault",
                        DeploymentPolicy.class.getName()), "--issuer (Maven: mooring.manifests.issuer) must be Issuer/NAME",
                List.of("--name", "w", "--namespace", "n", "--image", "i", "--certificates", "cert-manager", "--issuer", "Vault/x",
                        DeploymentPolicy.class.getName()), "must be Issuer/NAME or ClusterIssuer/NAME, not 'Vault/x'",
                List.of("--name", "w", "--namespace", "n", "--image", "i", "--certificates", "cert-manager", "--issuer", "Issuer/X_y",
                        DeploymentPolicy.class.getName()), "must be Issuer/NAME or ClusterIssuer/NAME, not 'Issuer/X_y'",
                List.of("--name", "w", "--namespace", "n", "--image", "i", "--certificates", "cert-manager", "--issuer",
                        "Issuer/a/b", DeploymentPolicy.class.getName()), "must be Issuer/NAME or ClusterIssuer/NAME, not 'Issuer/a/b'",
                List.of("--name", "w", "--namespace", "n", "--issuer", "Issuer/x", DeploymentPolicy.class.getName()),
                        "--issuer (Maven: mooring.manifests.issuer) needs --certificates (Maven: mooring.manifests.certificates)",
                List.of("--name", "w", "--namespace", "n", "--certificates", "self-managed", "--ca-file", "ca.crt",
                        DeploymentPolicy.class.getName()), "leave out --ca-file (Maven: mooring.manifests.ca-file)");
        wrong = new java.util.HashMap<>(wrong);
        wrong.putAll(certificates);
        for (Map.Entry<List<String>, String> arguments : wrong.entrySet()) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> GenerateManifests.generate(arguments.getKey(), Map.of()), arguments.getKey().toString());
            assertTrue(error.getMessage().contains(arguments.getValue()), arguments.getKey() + ": " + error.getMessage());
        }
    }

    @Test
    void aGivenIssuerOrClusterIssuerSignsTheCertificateInsteadOfAMadeOne() throws Exception {
        for (String issuer : List.of("Issuer/team-ca", "ClusterIssuer/letsencrypt.prod")) {
            Map<String, String> files = GenerateManifests.generate(List.of("--name", "w", "--namespace", "n", "--image", "i",
                    "--certificates", "cert-manager", "--issuer", issuer, DeploymentPolicy.class.getName()), Map.of());
            String all = String.join("\n", files.values());
            String kind = issuer.substring(0, issuer.indexOf('/'));
            String name = issuer.substring(issuer.indexOf('/') + 1);
            assertTrue(all.contains("issuerRef:") && all.contains("kind: " + kind) && all.contains("name: " + name), issuer + ":\n" + all);
            assertTrue(!all.contains("selfSigned"), "no self-signed Issuer made for " + issuer);
        }
    }
}
