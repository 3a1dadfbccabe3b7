package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.it.stale.SlowCreator;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stale leader never writes: the leader is frozen (SIGSTOP) in the middle of a pass, the
 * standby acquires the Lease and writes, then the old leader resumes. Its pass goes on, but the
 * create it then attempts is not sent: its leadership expired by its own monotonic clock.
 */
class StaleLeaderIT {

    private final List<LibertyProcess> servers = new ArrayList<>();
    private final List<Long> frozen = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (long pid : frozen) {
            new ProcessBuilder("kill", "-CONT", Long.toString(pid)).start().waitFor();
        }
        for (LibertyProcess server : servers) {
            server.command("stop");
        }
    }

    private LibertyProcess start(String identity, String namespace, Path ear) throws Exception {
        List<String> properties = new ArrayList<>(LibertyProcess.election(identity, namespace, "stale"));
        properties.add("mooring.controller.slow-creator.namespace=" + namespace);
        LibertyProcess server = LibertyProcess.start("stale-" + identity,
                Path.of(System.getProperty("mooring.it.failover.dir"), "stale-" + identity), ear, Map.of(),
                properties.toArray(String[]::new));
        servers.add(server);
        return server;
    }

    @Test
    void aLeaderFrozenMidPassWritesNothingAfterResuming() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "stale");
        Path ear = Path.of(System.getProperty("mooring.it.failover.dir"), "stale.ear");
        Files.createDirectories(ear.getParent());
        JavaArchive module = ShrinkWrap.create(JavaArchive.class, "stale.jar").addClasses(SlowCreator.class)
                .addAsManifestResource(Ears.ANNOTATED_BEANS, "beans.xml");
        ShrinkWrap.create(EnterpriseArchive.class, "stale.ear").merge(Ears.mooring()).addAsLibrary(module)
                .as(ZipExporter.class).exportTo(ear.toFile(), true);

        LibertyProcess a = start("a", namespace, ear);
        Eventually.await("a leads", Duration.ofSeconds(60), () -> a.get("/health/ready"), StaleLeaderIT::leading);
        LibertyProcess b = start("b", namespace, ear);
        Eventually.await("b ready as a standby", Duration.ofSeconds(60), () -> b.get("/health/ready"), r -> r.status() == 200);

        core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("target")
                .labels(Map.of("stale", "true")))).execute();
        Eventually.await("a's pass started", Duration.ofSeconds(30), () -> Files.readString(a.log()),
                log -> log.contains("PASS START a"));
        long pid = LibertyPid.of(a.name).pid();
        new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor();
        frozen.add(pid);
        Eventually.await("b leads", Duration.ofSeconds(30), () -> b.get("/health/ready"), StaleLeaderIT::leading);
        Eventually.await("b's write", Duration.ofSeconds(30), () -> read(core, namespace, "written-by-b"), found -> found);

        new ProcessBuilder("kill", "-CONT", Long.toString(pid)).start().waitFor();
        frozen.remove(pid);
        // a's pass ends (its sleep is long over): its create must not have been sent
        Eventually.await("a's pass went on after resuming", Duration.ofSeconds(30), () -> Files.readString(a.log()),
                log -> log.contains("not sent: this replica's leadership of Lease " + namespace + "/stale expired"));
        Thread.sleep(3000);
        assertTrue(!read(core, namespace, "written-by-a"), "the resumed former leader created its ConfigMap");
    }

    private static boolean read(CoreV1Api core, String namespace, String name) throws Exception {
        return core.listNamespacedConfigMap(namespace).execute().getItems().stream()
                .anyMatch(cm -> cm.getMetadata().getName().equals(name));
    }

    private static boolean leading(Http.Answer answer) {
        return answer.status() == 200 && answer.check("mooring-controllers").getJsonObject("data").getBoolean("leader", false);
    }
}
