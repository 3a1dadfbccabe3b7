package dev.mooring.it.author;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.stack.ApiServerLauncher;
import dev.mooring.stack.FreePorts;
import dev.mooring.stack.StackCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The README's "Your first operator" as a new user runs it, in a temporary folder: create the
 * project from the archetype, {@code mvn verify} it (its unit, embedded and Liberty tests), run it
 * with {@code mvn mooring:run} and reload a changed reconciler, then {@code mvn mooring:install} its
 * manifests on a local API server and {@code mvn mooring:uninstall} them — against the Mooring of
 * this build, taken from the local repository as a user's build would.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AuthorPathIT {

    private static final String VERSION = System.getProperty("mooring.version");
    private static final Path ROOT = Path.of(System.getProperty("mooring.root")).toAbsolutePath().normalize();
    private static final Path REPOSITORY = Path.of(System.getProperty("mooring.local-repository"));
    private static final Path WORK = Path.of(System.getProperty("mooring.work"));
    private static final Path PROJECT = WORK.resolve("greeting-operator");
    private static final Path TESTBED = WORK.resolve("testbed");
    /** The local API servers of this checkout, on free ports. */
    private static final ApiServerLauncher TESTBEDS = ApiServerLauncher.fromFolder(ROOT.resolve("local-apiserver"),
            StackCache.fromEnvironment(), System.out::println);

    @BeforeAll
    static void theLocalRepositoryHoldsThisBuild() throws IOException {
        // the generated project resolves Mooring from the local repository: stale copies there would test another build
        for (String module : List.of("mooring-archetype", "mooring-maven-plugin", "operator-ejb", "mooring-engine", "mooring-test")) {
            Path built = ROOT.resolve(module).resolve("target").resolve(module + "-" + VERSION + ".jar");
            Path installed = REPOSITORY.resolve("dev/mooring").resolve(module).resolve(VERSION).resolve(module + "-" + VERSION + ".jar");
            assertTrue(Files.isRegularFile(installed), installed + " is missing: run the build with mvn install (./mooring test does)");
            assertArrayEquals(Files.readAllBytes(built), Files.readAllBytes(installed), installed + " is not this build's "
                    + built + ": run the build with mvn install (./mooring test does)");
        }
    }

    @Test
    @Order(1)
    void createTheProjectFromTheArchetype() throws Exception {
        deleteRecursively(WORK);
        Files.createDirectories(WORK);
        maven(WORK, "create", "org.apache.maven.plugins:maven-archetype-plugin:3.4.1:generate", "-DarchetypeGroupId=dev.mooring",
                "-DarchetypeArtifactId=mooring-archetype", "-DarchetypeVersion=" + VERSION, "-DgroupId=com.example.greetings",
                "-DartifactId=greeting-operator", "-Dpackage=com.example.greetings",
                "-DinteractiveMode=false");
        Set<String> files;
        try (Stream<Path> walk = Files.walk(PROJECT)) {
            files = walk.filter(Files::isRegularFile).map(file -> PROJECT.relativize(file).toString()).collect(Collectors.toSet());
        }
        assertEquals(Set.of("pom.xml", "Containerfile", "README.md", ".gitignore", "src/main/resources/META-INF/beans.xml",
                "src/main/java/com/example/greetings/Greeting.java", "src/main/java/com/example/greetings/GreetingReconciler.java",
                "src/main/java/com/example/greetings/GreetingValidator.java",
                "src/test/java/com/example/greetings/GreetingValidatorTest.java",
                "src/test/java/com/example/greetings/GreetingReconcilerTest.java",
                "src/test/java/com/example/greetings/GreetingOperatorIT.java", "src/test/resources/arquillian.xml",
                "config/samples/Greeting.yaml"), files);
        String sample = Files.readString(PROJECT.resolve("config/samples/Greeting.yaml"));
        assertTrue(sample.contains("apiVersion: example.com/v1\nkind: Greeting\n") && sample.contains("namespace: operators"), sample);
        String pom = Files.readString(PROJECT.resolve("pom.xml"));
        assertTrue(pom.contains("<mooring.version>" + VERSION + "</mooring.version>") && pom.contains("<artifactId>mooring-bom</artifactId>"),
                pom);
    }

    /** The archetype's kind, version and group are properties: another kind's project builds and generates its CRD. */
    @Test
    @Order(5)
    void anotherKindVersionAndGroupFromTheArchetype() throws Exception {
        Path other = WORK.resolve("other");
        Files.createDirectories(other);
        maven(other, "create-backup", "org.apache.maven.plugins:maven-archetype-plugin:3.4.1:generate", "-DarchetypeGroupId=dev.mooring",
                "-DarchetypeArtifactId=mooring-archetype", "-DarchetypeVersion=" + VERSION, "-DgroupId=com.example.backups",
                "-DartifactId=backup-operator", "-Dpackage=com.example.backups", "-Dkind=Backup", "-DcrdVersion=v1alpha1",
                "-DapiGroup=storage.example.org", "-DinteractiveMode=false");
        Path project = other.resolve("backup-operator");
        for (String file : List.of("Backup.java", "BackupReconciler.java", "BackupValidator.java")) {
            assertTrue(Files.isRegularFile(project.resolve("src/main/java/com/example/backups").resolve(file)), file);
        }
        // compiled, its CRD and manifests generated, installed (its tests are the same as the Greeting project's, run above)
        maven(project, "install-backup", "install", "-DskipTests");
        // install published the EAR and the manifests beside the jar, for a repository manager to promote
        Path installed = REPOSITORY.resolve("com/example/backups/backup-operator/1.0-SNAPSHOT");
        assertTrue(Files.isRegularFile(installed.resolve("backup-operator-1.0-SNAPSHOT.ear")), "the EAR is not installed");
        try (ZipFile zip = new ZipFile(installed.resolve("backup-operator-1.0-SNAPSHOT-manifests.zip").toFile())) {
            assertTrue(zip.getEntry("crds.yaml") != null && zip.getEntry("kustomization.yaml") != null, "the manifests zip");
        }
        String crds = Files.readString(project.resolve("target/manifests/crds.yaml"));
        assertTrue(crds.contains("name: backups.storage.example.org") && crds.contains("name: v1alpha1") && crds.contains("kind: Backup"),
                crds);
        assertTrue(Files.readString(project.resolve("target/manifests/webhooks.yaml")).contains("/validate/storage/example/org/v1alpha1/backups/"),
                "the validator's route for the kind");
        String sample = Files.readString(project.resolve("config/samples/Backup.yaml"));
        assertTrue(sample.contains("apiVersion: storage.example.org/v1alpha1\nkind: Backup\n") && sample.contains("name: backup-sample"),
                sample);
        String refused = mavenFailing(other, "create-bad-kind", Map.of(), "org.apache.maven.plugins:maven-archetype-plugin:3.4.1:generate",
                "-DarchetypeGroupId=dev.mooring", "-DarchetypeArtifactId=mooring-archetype", "-DarchetypeVersion=" + VERSION,
                "-DgroupId=com.example.bad", "-DartifactId=bad-operator", "-Dpackage=com.example.bad", "-Dkind=lower-case",
                "-DinteractiveMode=false");
        assertTrue(refused.contains("kind 'lower-case' is not a Kubernetes kind"), refused);
        assertTrue(!Files.exists(other.resolve("bad-operator")), "the refused project is removed");
    }

    @Test
    @Order(2)
    void buildAndTestItsEarManifestsAndServerConfiguration() throws Exception {
        String log = maven(PROJECT, "verify", "verify");
        // both of its tests: the validator with requests built in memory, the reconciler with the engine on a local API server
        assertTrue(log.contains("Tests run: 3, Failures: 0, Errors: 0, Skipped: 0"), "the project's own tests did not all pass:\n" + log);
        assertTrue(passed(log, "GreetingReconcilerTest"), log);
        // and its integration test: the EAR deployed by Arquillian on Liberty, against the local API server mooring:start started
        assertTrue(passed(log, "GreetingOperatorIT") && log.contains("mooring-test/apiserver)"), log); // and mooring:stop stopped it

        try (ZipFile ear = new ZipFile(PROJECT.resolve("target/greeting-operator.ear").toFile())) {
            List<String> entries = ear.stream().map(entry -> entry.getName()).toList();
            for (String expected : List.of("META-INF/application.xml", "operator-ejb.jar", "operator-web.war",
                    "lib/com.example.greetings-greeting-operator-1.0-SNAPSHOT.jar", "lib/dev.mooring-operator-api-" + VERSION + ".jar",
                    "lib/dev.mooring-mooring-engine-" + VERSION + ".jar",
                    "lib/io.kubernetes-client-java-27.0.0.jar", "lib/org.slf4j-slf4j-jdk14-2.0.18.jar")) {
                assertTrue(entries.contains(expected), expected + " not in the EAR: " + entries);
            }
            assertTrue(entries.stream().noneMatch(entry -> entry.contains("jakarta") || entry.contains("junit")
                    || entry.contains("mooring-test")), "provided or test libraries in the EAR: " + entries);
        }

        Path manifests = PROJECT.resolve("target/manifests");
        String crds = Files.readString(manifests.resolve("crds.yaml"));
        assertTrue(crds.contains("name: greetings.example.com") && crds.contains("maxLength: 200") && crds.contains("default: en"), crds);
        String rbac = Files.readString(manifests.resolve("rbac.yaml"));
        assertTrue(rbac.contains("- greetings/status") && rbac.contains("- configmaps") && rbac.contains("namespace: operators"), rbac);
        String deployment = Files.readString(manifests.resolve("deployment.yaml"));
        assertTrue(deployment.contains("image: greeting-operator:1.0-SNAPSHOT"), deployment);
        assertTrue(deployment.contains("MOORING_WEBHOOK_CERTIFICATES") && !deployment.contains("secretName"), deployment);
        // install.yaml holds the values; the kustomize folder's files the variables that follow an overlay
        String install = Files.readString(manifests.resolve("install.yaml"));
        assertTrue(install.contains("- greeting-operator-tls") && install.contains("- greeting-operator.operators.svc")
                && install.contains("kind: Namespace"), install);
        assertTrue(rbac.contains("- $(OPERATOR_NAME)-tls") && rbac.contains("- $(OPERATOR_NAME).$(OPERATOR_NAMESPACE).svc"), rbac);
        String webhooks = Files.readString(manifests.resolve("webhooks.yaml"));
        // self-managed certificates: the operator writes the CA bundle, the file has none
        assertTrue(!webhooks.contains("caBundle") && !webhooks.contains("inject-ca-from")
                && webhooks.contains("ValidatingWebhookConfiguration") && webhooks.contains("- UPDATE"), webhooks);
        assertTrue(Files.readString(manifests.resolve("kustomization.yaml")).contains("- crds.yaml"));

        // the Containerfile copies what the build wrote
        String containerfile = Files.readString(PROJECT.resolve("Containerfile"));
        assertTrue(containerfile.contains("COPY --chown=1001:0 target/liberty/config/ /config/")
                && containerfile.contains("target/greeting-operator.ear") && containerfile.contains("kernel-slim")
                && containerfile.contains("RUN features.sh") && containerfile.contains("USER 1001"), containerfile);
        Path config = PROJECT.resolve("target/liberty/config");
        assertTrue(Files.readString(config.resolve("server.xml")).contains("<feature>cdi-4.0</feature>"));
        assertTrue(Files.readString(config.resolve("bootstrap.properties")).contains("mp.metrics.distribution.timer.buckets"));
        assertTrue(Files.readString(config.resolve("jvm.options")).contains("-XX:MaxRAMPercentage"));
        assertTrue(Files.readString(config.resolve("jvm.options")).contains("-XX:+ExitOnOutOfMemoryError"));
    }

    /**
     * {@code mvn mooring:install} on a local API server that runs pods (podman) and enforces RBAC:
     * the operator's pod starts from the project's image as the generated Deployment says, with the
     * generated ServiceAccount's token and RBAC (no admin credentials in the pod), makes its webhook
     * certificate and writes its CA into the registration; the install waits on that real rollout.
     * The API server then calls the webhook through the generated Service, and the operator
     * reconciles. A pod that fails its probes fails the rollout step with the probe's answer and
     * the pod's last log lines; {@code mvn mooring:uninstall} leaves nothing behind.
     */
    @Test
    @Order(3)
    void installItsManifestsThenUninstallThem() throws Exception {
        buildTheImage();
        Path kubeconfig = TESTBEDS.up(TESTBED, "--run-pods", "--authorization-mode=RBAC").kubeconfig();
        io.kubernetes.client.openapi.ApiClient client = io.kubernetes.client.util.Config.fromConfig(kubeconfig.toString());
        String deployment = "/apis/apps/v1/namespaces/operators/deployments/greeting-operator";
        String webhooks = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
        String secret = "/api/v1/namespaces/operators/secrets/greeting-operator-tls";
        String greetings = "/apis/example.com/v1/namespaces/operators/greetings";
        String log = maven(PROJECT, "install", Map.of("KUBECONFIG", kubeconfig.toString()), "mooring:install",
                "-Dmooring.install.timeout=300s");
        assertTrue(log.contains("available Deployment operators/greeting-operator") && log.contains("[webhooks]"), log);

        // the install ends once the operator wrote its CA into the registration (self-managed certificates)
        assertTrue(log.contains("CA bundle in ValidatingWebhookConfiguration greeting-operator.operators.svc"), log);
        com.google.gson.JsonObject made = com.google.gson.JsonParser.parseString(get(client, secret)).getAsJsonObject();
        String bundle = made.getAsJsonObject("data").get("ca.crt").getAsString();
        assertTrue(get(client, webhooks + "/greeting-operator.operators.svc").contains("\"caBundle\":\"" + bundle + "\""),
                "the registration carries the CA of Secret greeting-operator-tls");
        assertTrue(made.getAsJsonObject("metadata").getAsJsonArray("ownerReferences").toString()
                .contains("\"kind\":\"ServiceAccount\",\"name\":\"greeting-operator\""), made.toString());

        String container = podContainer("operators/greeting-operator-");
        assertTrue(dev.mooring.it.Podman.podman("exec", container, "cat", "/proc/1/status").lines()
                .anyMatch(line -> line.matches("Uid:\\s+1001\\s+1001\\s+1001\\s+1001")), "the server runs as user 1001");
        String environment = dev.mooring.it.Podman.podman("exec", container, "env");
        assertTrue(!environment.contains("KUBECONFIG") && environment.contains("KUBERNETES_SERVICE_HOST="), environment);
        assertEquals("operators", dev.mooring.it.Podman.podman("exec", container, "cat",
                "/var/run/secrets/kubernetes.io/serviceaccount/namespace").strip(), "the ServiceAccount token is where Kubernetes mounts it");
        // two pods, the default with webhooks: both find the controller, one of them makes the certificates
        List<String> containers = podContainers("operators/greeting-operator-");
        assertEquals(2, containers.size(), "two replicas by default with a webhook: " + containers);
        StringBuilder all = new StringBuilder();
        for (String each : containers) {
            String logs = dev.mooring.it.Podman.podman("logs", each);
            assertTrue(logs.contains("\"type\":\"liberty_message\"") && logs.contains("Found controller"), logs);
            all.append(logs);
        }
        assertTrue(all.toString().contains("Webhook certificates made"), all.toString());

        // the operator reconciles, and the API server calls its webhook through the Service
        send(client, "POST", greetings, "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Greeting\",\"metadata\":{\"name\":"
                + "\"hello\"},\"spec\":{\"message\":\"hi\",\"language\":\"en\"}}", "application/json");
        await("the Greeting's ConfigMap", Duration.ofSeconds(60), () -> get(client, "/api/v1/namespaces/operators/configmaps/hello")
                != null);
        String denied = sendExpectingFailure(client, "PATCH", greetings + "/hello", "{\"spec\":{\"language\":\"fr\"}}",
                "application/merge-patch+json");
        assertTrue(denied.contains("spec.language is immutable: en cannot become fr"), denied);
        send(client, "DELETE", greetings + "/hello", null);

        log = maven(PROJECT, "uninstall", Map.of("KUBECONFIG", kubeconfig.toString()), "mooring:uninstall");
        assertTrue(log.contains("deleted ValidatingWebhookConfiguration") && log.contains("deleted Deployment operators/greeting-operator"),
                log);
        awaitNothingLeft(client);

        // a pod that fails its probes: the rollout step fails naming the probe's answer and the pod's log
        Path broken = WORK.resolve("broken-manifests");
        deleteRecursively(broken);
        Files.createDirectories(broken);
        try (Stream<Path> files = Files.list(PROJECT.resolve("target/manifests"))) {
            for (Path file : files.toList()) {
                String text = Files.readString(file);
                if (file.getFileName().toString().equals("deployment.yaml")) {
                    text = text.replace("          env:\n", "          env:\n            - name: MOORING_REQUEST_TIMEOUT\n"
                            + "              value: soon\n");
                }
                Files.writeString(broken.resolve(file.getFileName()), text);
            }
        }
        String failed = mavenFailing(PROJECT, "install-broken", Map.of("KUBECONFIG", kubeconfig.toString()), "mooring:install",
                "-Dmooring.manifests.output=" + broken, "-Dmooring.install.timeout=60s");
        assertTrue(failed.contains("step 'rollout' failed") && failed.contains("Startup probe failed: GET /health/started: HTTP 503")
                && failed.contains("last log lines:") && failed.contains("mooring.request.timeout must be a duration"), failed);
        maven(PROJECT, "uninstall-broken", Map.of("KUBECONFIG", kubeconfig.toString()), "mooring:uninstall",
                "-Dmooring.manifests.output=" + broken);
        awaitNothingLeft(client);
    }

    /** No pod, container, Secret or registration of the operator left. */
    private void awaitNothingLeft(io.kubernetes.client.openapi.ApiClient client) throws Exception {
        await("the operator's pods and containers gone", Duration.ofSeconds(60), () -> {
            String pods = get(client, "/api/v1/namespaces/operators/pods");
            return pods != null && !pods.contains("greeting-operator-")
                    && dev.mooring.it.Podman.podman("ps", "-a", "--filter", "label=testbed.mooring.dev/dir=" + TESTBED.toAbsolutePath().resolve("pods"),
                            "--format", "{{.Names}}").lines().noneMatch(name -> name.contains("greeting-operator-"));
        });
        // the Secret the operator made is owned by its ServiceAccount: the garbage collector removes it with the install
        await("the operator's Secret gone", Duration.ofSeconds(60), () -> get(client, "/api/v1/namespaces/operators/secrets/greeting-operator-tls") == null);
        assertTrue(get(client, "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/greeting-operator.operators.svc") == null);
    }

    /** The podman container of the first pod whose {@code namespace/name} starts with {@code prefix}. */
    private static String podContainer(String prefix) throws Exception {
        return podContainers(prefix).stream().findFirst().orElseThrow(() -> new AssertionError("no container of a pod " + prefix + "*"));
    }

    /** The running podman containers of this testbed's pods whose {@code namespace/name} starts with {@code prefix}. */
    private static List<String> podContainers(String prefix) throws Exception {
        return dev.mooring.it.Podman.podContainers(TESTBED, prefix);
    }

    /** The project's image, built with podman from its Containerfile on the stand-in base, tagged as its Deployment names it. */
    private void buildTheImage() throws Exception {
        String base = dev.mooring.it.Podman.standInBase(ROOT);
        dev.mooring.it.Podman.build(PROJECT, PROJECT.resolve("Containerfile"), base, "localhost/greeting-operator:1.0-SNAPSHOT");
    }

    @Test
    @Order(4)
    void runLocallyAndReloadAChangedReconciler() throws Exception {
        int[] ports = FreePorts.pick(3);
        int http = ports[0];
        int https = ports[1];
        int debug = ports[2];
        List<String> command = new ArrayList<>(List.of("mvn", "-B", "-Dmaven.repo.local=" + REPOSITORY));
        if (Boolean.getBoolean("mooring.offline")) {
            command.add("-o");
        }
        command.addAll(List.of("mooring:run", "-Dmooring.run.http-port=" + http, "-Dmooring.run.https-port=" + https,
                "-Dmooring.run.debug=" + debug));
        Path log = WORK.resolve("run.log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(PROJECT.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().remove("KUBECONFIG"); // no cluster given: mooring:run starts the local API server
        Process run = builder.start();
        String server = null;
        try {
            await("the operator ready (" + log + ")", Duration.ofMinutes(8), () -> {
                if (!run.isAlive()) {
                    throw new AssertionError("mooring:run ended:\n" + Files.readString(log));
                }
                return status("http://localhost:" + http + "/health/ready") == 200;
            });
            io.kubernetes.client.openapi.ApiClient client = io.kubernetes.client.util.Config.fromConfig(
                    PROJECT.resolve("target/mooring-run/apiserver/admin.kubeconfig").toString());
            server = client.getBasePath();
            send(client, "POST", "/apis/example.com/v1/namespaces/operators/greetings", "{\"apiVersion\":\"example.com/v1\","
                    + "\"kind\":\"Greeting\",\"metadata\":{\"name\":\"hello\"},\"spec\":{\"message\":\"Hello\"}}", "application/json");
            String configMap = "/api/v1/namespaces/operators/configmaps/hello";
            await("the reconciler's ConfigMap", Duration.ofSeconds(60), () -> String.valueOf(get(client, configMap))
                    .contains("\"message\":\"Hello\""));
            assertTrue(get(client, configMap).contains("\"language\":\"en\""), "the CRD's default applied");
            // the operator's webhooks are registered with the local API server, which calls them on this machine
            String denied = sendExpectingFailure(client, "PATCH", "/apis/example.com/v1/namespaces/operators/greetings/hello",
                    "{\"spec\":{\"language\":\"de\"}}", "application/merge-patch+json");
            assertTrue(denied.contains("spec.language is immutable: en cannot become de"), denied);
            // the banner comes once the operator has started, and only then
            String banner = Files.readString(log);
            assertTrue(banner.contains("Reload:      save a source") && !banner.contains("The operator did not start"), banner);
            assertTrue(banner.contains("Debugger:    attach to 127.0.0.1:" + debug), banner);
            try (java.net.Socket debugger = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), debug)) {
                debugger.setSoTimeout(10_000);
                debugger.getOutputStream().write("JDWP-Handshake".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                assertEquals("JDWP-Handshake", new String(debugger.getInputStream().readNBytes(14),
                        java.nio.charset.StandardCharsets.US_ASCII), "the server's JVM answers a debugger");
            }

            // the author changes the reconciler and the custom resource and saves, nothing more: mooring:run compiles,
            // applies the changed CRD, and Liberty restarts the application; the API server stays
            Path reconciler = PROJECT.resolve("src/main/java/com/example/greetings/GreetingReconciler.java");
            String source = Files.readString(reconciler);
            String changed = source.replace("Map.of(\"message\", resource.getSpec().message,", "Map.of(\"message\", resource.getSpec().message + \"!\",");
            assertTrue(!changed.equals(source), "the sample reconciler changed shape: " + source);
            Path resource = PROJECT.resolve("src/main/java/com/example/greetings/Greeting.java");
            String kind = Files.readString(resource);
            String widened = kind.replace("@Size(max = 200)", "@Size(max = 300)");
            assertTrue(!widened.equals(kind), "the sample custom resource changed shape: " + kind);
            Files.writeString(reconciler, changed);
            Files.writeString(resource, widened);
            await("the changed reconciler's ConfigMap", Duration.ofSeconds(120), () -> String.valueOf(get(client, configMap))
                    .contains("\"message\":\"Hello!\""));
            await("the changed CRD applied", Duration.ofSeconds(60), () -> String.valueOf(get(client,
                    "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/greetings.example.com")).contains("\"maxLength\":300"));
            assertTrue(get(client, "/apis/example.com/v1/namespaces/operators/greetings/hello") != null, "the API server kept its objects");
        } finally {
            run.destroy(); // as a terminal's kill: mooring:run stops Liberty and the local API server
            if (!run.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)) {
                run.destroyForcibly();
            }
        }
        assertEquals(-1, status("http://localhost:" + http + "/health/live"), "Liberty stopped with mooring:run");
        assertTrue(server != null);
        assertEquals(-1, status(server.replace("https://", "http://") + "/healthz"), "the local API server stopped with mooring:run");
    }

    /** True when the build log shows the one test of {@code testClass} passed. */
    private static boolean passed(String log, String testClass) {
        return java.util.regex.Pattern.compile("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: [0-9.]+ s -- in "
                + "com\\.example\\.greetings\\." + testClass).matcher(log).find();
    }

    /** The HTTP status of a GET, or -1 when nothing answers. */
    private static int status(String url) {
        try {
            java.net.HttpURLConnection connection = (java.net.HttpURLConnection) java.net.URI.create(url).toURL().openConnection();
            connection.setConnectTimeout(2000);
            connection.setReadTimeout(5000);
            return connection.getResponseCode();
        } catch (IOException e) {
            return -1;
        }
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void await(String what, Duration timeout, Condition condition) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
            Thread.sleep(500);
        }
    }

    @AfterAll
    static void stopTheTestbed() throws Exception {
        if (Files.exists(TESTBED.resolve("testbed.env"))) {
            TESTBEDS.down(TESTBED);
        }
    }


    /** The JSON at {@code path}, or null when it does not exist. */
    private static String get(io.kubernetes.client.openapi.ApiClient client, String path) throws IOException {
        try (okhttp3.Response response = client.getHttpClient().newCall(new okhttp3.Request.Builder().url(client.getBasePath() + path)
                .build()).execute()) {
            if (response.code() == 404) {
                return null;
            }
            String body = response.body().string();
            assertTrue(response.isSuccessful(), path + ": " + response.code() + " " + body);
            return body;
        }
    }

    private static void send(io.kubernetes.client.openapi.ApiClient client, String method, String path, String body) throws IOException {
        send(client, method, path, body, "application/merge-patch+json");
    }

    private static void send(io.kubernetes.client.openapi.ApiClient client, String method, String path, String body, String type)
            throws IOException {
        try (okhttp3.Response response = call(client, method, path, body, type)) {
            assertTrue(response.isSuccessful(), method + " " + path + ": " + response.code() + " " + response.body().string());
        }
    }

    /** Sends a request the API server must refuse; answers its answer. */
    private static String sendExpectingFailure(io.kubernetes.client.openapi.ApiClient client, String method, String path, String body,
            String type) throws IOException {
        try (okhttp3.Response response = call(client, method, path, body, type)) {
            String answer = response.body().string();
            assertTrue(!response.isSuccessful(), method + " " + path + " was accepted: " + answer);
            return answer;
        }
    }

    private static okhttp3.Response call(io.kubernetes.client.openapi.ApiClient client, String method, String path, String body,
            String type) throws IOException {
        return client.getHttpClient().newCall(new okhttp3.Request.Builder().url(client.getBasePath() + path)
                .method(method, body == null ? null : okhttp3.RequestBody.create(body, okhttp3.MediaType.get(type))).build()).execute();
    }

    /** Runs Maven in {@code directory} as a user would; answers its output, kept in the work folder; fails naming the step. */
    private static String maven(Path directory, String step, String... arguments) throws IOException, InterruptedException {
        return maven(directory, step, Map.of(), arguments);
    }

    private static String maven(Path directory, String step, Map<String, String> environment, String... arguments)
            throws IOException, InterruptedException {
        return maven(directory, step, environment, true, arguments);
    }

    /** Runs Maven expecting it to fail; answers its output. */
    private static String mavenFailing(Path directory, String step, Map<String, String> environment, String... arguments)
            throws IOException, InterruptedException {
        return maven(directory, step, environment, false, arguments);
    }

    private static String maven(Path directory, String step, Map<String, String> environment, boolean succeeds, String... arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("mvn", "-B", "-Dmaven.repo.local=" + REPOSITORY));
        if (Boolean.getBoolean("mooring.offline")) {
            command.add("-o");
        }
        command.addAll(List.of(arguments));
        Path log = WORK.resolve(step + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        int exit = builder.start().waitFor();
        String output = Files.readString(log);
        assertEquals(succeeds, exit == 0, "step '" + step + "' (" + String.join(" ", command) + ") "
                + (succeeds ? "failed" : "should have failed") + ":\n" + output);
        return output;
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path file : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
