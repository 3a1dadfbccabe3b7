package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.stack.FreePorts;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The demo operator's image as it ships: liberty-config/Containerfile built with podman on the
 * stand-in base (Debian's JRE and Liberty from Maven Central, laid out as the official image), then
 * started as the generated Deployment's container runs: read-only root file system with its
 * {@code emptyDir}s (tmpfs here), every capability dropped, no privilege escalation. Inside the
 * container the operator runs as user 1001, logs JSON on the console, reaches ready against the
 * local API server and mirrors a ConfigMap. The time from {@code podman run} to ready is printed
 * (docs/benchmarks.md), never asserted.
 */
class ImageIT {

    private static final String TAG = "localhost/mooring-demo:it";

    private final String container = "mooring-image-it-" + ProcessHandle.current().pid();

    @AfterEach
    void remove() {
        Podman.remove(container);
    }

    @Test
    void theDemoImageStartsAsUser1001WithJsonLogsAndReconciles() throws Exception {
        Path root = Path.of(System.getProperty("mooring.it.root"));
        String base = Podman.standInBase(root);
        Podman.build(root, root.resolve("liberty-config/Containerfile"), base, TAG);

        String namespace = Testbed.createNamespace(new CoreV1Api(Testbed.client()), "image");
        // the kubeconfig with a bearer token and the CA inline, readable by the container's user
        Path kube = Files.createTempDirectory(Path.of(System.getProperty("mooring.it.failover.dir")).getParent(), "image-kube");
        Files.setPosixFilePermissions(kube, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.copy(Testbed.runDir().resolve("token.kubeconfig"), kube.resolve("config"));
        Files.setPosixFilePermissions(kube.resolve("config"), PosixFilePermissions.fromString("rw-r--r--"));
        int[] ports = FreePorts.pick(2);
        int http = ports[0];
        int https = ports[1];
        List<String> options = new java.util.ArrayList<>(List.of("-e", "HTTP_PORT=" + http, "-e", "HTTPS_PORT=" + https,
                "-e", "KUBECONFIG=/var/run/mooring/kube/config",
                "-v", kube + ":/var/run/mooring/kube:ro"));
        options.addAll(Podman.asTheDeploymentSays(dev.mooring.manifests.Workload.deployment(
                new dev.mooring.manifests.Workload.Settings(dev.mooring.manifests.GenerateManifests.Options.builder()
                        .name("mooring-demo").namespace(namespace).image(TAG).build(), 1, null, false,
                        dev.mooring.manifests.Certificates.Mode.SELF_MANAGED))));
        long launched = System.nanoTime();
        Podman.runDetached(container, options, TAG);
        HttpClient client = HttpClient.newHttpClient();
        Eventually.await("the operator in the container ready", Duration.ofMinutes(3), () -> client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + http + "/health/ready")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode(), status -> status == 200);
        Duration ready = Duration.ofNanos(System.nanoTime() - launched);
        String java = System.getProperty("mooring.it.base.java", "").isBlank() ? "17" : System.getProperty("mooring.it.base.java").trim();
        System.out.println("[image] podman run -> /health/ready UP: " + ready.toMillis() + " ms (stand-in base, HotSpot " + java + ")");

        assertTrue(Podman.podman("exec", container, "cat", "/proc/1/status").lines()
                .anyMatch(line -> line.matches("Uid:\\s+1001\\s+1001\\s+1001\\s+1001")), "the server runs as user 1001");
        String logs = Podman.podman("logs", container);
        List<String> lines = logs.lines().filter(line -> !line.isBlank()).toList();
        assertTrue(lines.size() > 5, logs);
        // every line is a JSON record, except the two that come before Liberty's logging starts: the server script's
        // "Launching defaultServer ..." and the JVM's own warnings (HotSpot's about class sharing)
        for (String line : lines) {
            if (line.startsWith("Launching defaultServer ") || line.startsWith("OpenJDK 64-Bit Server VM warning: ")) {
                continue;
            }
            assertTrue(line.startsWith("{") && com.google.gson.JsonParser.parseString(line).isJsonObject(), "not a JSON record: " + line);
        }
        assertTrue(logs.contains("\"type\":\"liberty_message\"") && logs.contains("Found controller configmap-mirror"), logs);
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("Launching defaultServer ") && line.contains(", version " + java + ".")),
                "the image's JVM is Java " + java + " (-Dit.base.java): " + lines.get(0));

        KubeHttp http2 = new KubeHttp(Testbed.client());
        http2.send("POST", "/api/v1/namespaces/" + namespace + "/configmaps", Map.of(), "{\"metadata\":{\"name\":\"hello\","
                + "\"labels\":{\"example.com/mirror\":\"true\"}},\"data\":{\"greeting\":\"hi\"}}", "application/json");
        Eventually.await("the mirror written by the operator in the container", Duration.ofSeconds(60),
                () -> http2.getOptional("/api/v1/namespaces/" + namespace + "/configmaps/hello-mirror", Map.of()).isPresent());
        assertEquals("hi", http2.get("/api/v1/namespaces/" + namespace + "/configmaps/hello-mirror", Map.of())
                .getAsJsonObject("data").get("greeting").getAsString());
    }
}
