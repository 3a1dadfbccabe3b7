package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.test.Eventually;
import io.kubernetes.client.util.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Liberty InstantOn's {@code server checkpoint --at=afterAppStart} on HotSpot, with Liberty's
 * stand-in for CRIU ({@code io.openliberty.checkpoint.stub.criu=true}: the checkpoint is not
 * written, the hooks run and the server goes on as restored) and {@code crac-1.4}: Mooring's
 * controllers and admission webhooks wait for the restore notification; the operator opens no connection
 * to the API server (through a proxy that notes each one) before it, and after it connects,
 * becomes ready and reconciles.
 */
class CheckpointIT {

    private final Path dir = Path.of(System.getProperty("mooring.it.failover.dir")).resolveSibling("checkpoint");
    private LibertyProcess server;
    private Process checkpoint;
    private FreezingProxy proxy;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.command("stop");
        }
        if (checkpoint != null) {
            checkpoint.waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
            checkpoint.destroyForcibly();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    private static boolean logged(LibertyProcess server, String text) throws Exception {
        try {
            server.logTime(text);
            return true;
        } catch (AssertionError absent) {
            return false;
        }
    }

    @Test
    void theControllersAndWebhooksStartOnRestoreAndNothingConnectsBeforeIt() throws Exception {
        Files.createDirectories(dir);
        KubeHttp http = new KubeHttp(Testbed.client());
        String namespace = "checkpoint-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        http.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + namespace + "\"}}", "application/json");
        java.util.Properties env = Testbed.env();
        String direct = env.getProperty("TESTBED_SERVER");
        proxy = new FreezingProxy(Integer.parseInt(direct.substring(direct.lastIndexOf(':') + 1)));
        Path kubeconfig = dir.resolve("proxied.kubeconfig");
        Files.writeString(kubeconfig, Files.readString(Testbed.runDir().resolve("admin.kubeconfig"))
                .replace(direct, "https://127.0.0.1:" + proxy.port()));
        // Mooring's demo (the ConfigMap mirror) and the admission-policies example: controllers and webhooks
        Path ear = Ears.exportWithPackage(dir, "checkpoint.ear", dev.mooring.examples.admission.DeploymentPolicy.class, namespace);
        String[] properties = java.util.stream.Stream.concat(java.util.stream.Stream.of(LibertyProcess.webhookTls()),
                java.util.stream.Stream.of("mooring.namespace=" + namespace, "io.openliberty.checkpoint.stub.criu=true"))
                .toArray(String[]::new);
        server = LibertyProcess.create("checkpoint", dir.resolve("usr"), ear, Map.of("KUBECONFIG", kubeconfig.toString()),
                Map.of("crac.xml", "<server><featureManager><feature>crac-1.4</feature></featureManager></server>"), properties);
        checkpoint = server.checkpointAfterAppStart(dir.resolve("checkpoint.out"));
        server.awaitLive();
        Eventually.await("live after the restore", Duration.ofSeconds(90), () -> server.get("/health/live").status() == 200);
        Eventually.await("both started after the restore", Duration.ofSeconds(30),
                () -> logged(server, "Restored from the checkpoint: starting ["));

        long deferred = server.logTime("A checkpoint after the application's start is requested: the controllers start");
        long requested = server.logTime("CWWKC0451I");
        long restored = server.logTime("Restored from the checkpoint: starting [");
        assertTrue(logged(server, "Restored from the checkpoint: starting [the controllers, the admission webhooks]")
                || logged(server, "Restored from the checkpoint: starting [the admission webhooks, the controllers]"),
                "both started on the restore");
        assertTrue(server.logTime("the admission webhooks start when the process is restored") <= requested,
                "the webhooks deferred at the application's start too");
        assertTrue(deferred <= requested && requested <= restored, "deferred at the application's start (" + deferred
                + "), checkpoint requested (" + requested + "), restored (" + restored + ")");
        assertTrue(server.logTime("Checkpoint: Mooring holds no connection") <= restored, "told before the checkpoint");
        assertTrue(!proxy.accepted.isEmpty(), "the operator connects after the restore");
        assertTrue(proxy.accepted.get(0) >= restored, "first connection at " + proxy.accepted.get(0)
                + ", before the restore at " + restored);

        // and it works: the demo's ConfigMap mirror copies a labelled ConfigMap
        http.send("POST", "/api/v1/namespaces/" + namespace + "/configmaps", Map.of(), "{\"metadata\":{\"name\":\"a\","
                + "\"labels\":{\"example.com/mirror\":\"true\"}},\"data\":{\"k\":\"v\"}}", "application/json");
        Eventually.await("a mirrored", Duration.ofSeconds(60),
                () -> http.getOptional("/api/v1/namespaces/" + namespace + "/configmaps/a-mirror", Map.of()).isPresent());
        assertEquals("v", http.get("/api/v1/namespaces/" + namespace + "/configmaps/a-mirror", Map.of()).getAsJsonObject("data")
                .get("k").getAsString());
    }
}
