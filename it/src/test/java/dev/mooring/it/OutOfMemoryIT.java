package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.it.oom.Hoarder;
import dev.mooring.test.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A server out of heap ends instead of hanging in back-to-back collections: with the shipped
 * jvm.options ({@code -XX:+ExitOnOutOfMemoryError}) a leaking reconciler's OutOfMemoryError ends
 * the JVM, and its console says why. (Without the option the JVM went on collecting for minutes,
 * answering no probe, until {@code kill -9}.)
 */
class OutOfMemoryIT {

    private LibertyProcess server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.kill9();
        }
    }

    @Test
    void anOutOfMemoryErrorEndsTheServerWithTheCauseInItsConsole() throws Exception {
        KubeHttp http = new KubeHttp(Testbed.client());
        String namespace = Testbed.createNamespace(new io.kubernetes.client.openapi.apis.CoreV1Api(Testbed.client()), "oom");
        Path dir = Path.of(System.getProperty("mooring.it.failover.dir"), "oom");
        Path ear = Ears.exportWithPackage(dir, "oom.ear", Hoarder.class, namespace);
        server = LibertyProcess.start("oom", dir.resolve("usr"), ear, Map.of(), "mooring.controller.hoarder.namespace=" + namespace);
        LibertyProcess started = server;
        Eventually.await("oom server ready", Duration.ofSeconds(120), () -> started.get("/health/ready"), answer -> answer.status() == 200);
        ProcessHandle jvm = LibertyPid.of("oom");

        http.send("POST", "/api/v1/namespaces/" + namespace + "/configmaps", Map.of(),
                "{\"metadata\":{\"name\":\"leak\",\"labels\":{\"hoard\":\"true\"}}}", "application/json");
        // filling 512 MiB takes well under a second; the bound is for a busy machine, not a measure
        Eventually.await("the JVM ended", Duration.ofSeconds(60), () -> !jvm.isAlive());
        String console = Files.readString(server.usr.resolve("servers/oom/logs/console.log"));
        assertTrue(console.contains("Terminating due to java.lang.OutOfMemoryError: Java heap space"), console);
        assertTrue(Files.readString(server.log()).contains("HOARDING for leak"), "the leak's pass never started");
        server = null;
    }
}
