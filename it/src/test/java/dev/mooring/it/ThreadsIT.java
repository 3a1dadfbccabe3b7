package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.admission.AdmissionRoutes;
import dev.mooring.engine.admission.WebhookConfigurations;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.Models;
import dev.mooring.it.threads.Shards;
import dev.mooring.it.threads.ThreadsPolicy;
import dev.mooring.test.Eventually;
import io.kubernetes.client.common.KubernetesObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Long-running loops never starve admission: ten controllers (ten informers, thirty workers) and
 * a validating webhook on a Liberty server whose JVM sees 2 processors, while a CPU hog runs; 200
 * admission calls through the real API server are each answered by the method, none times out.
 */
class ThreadsIT {

    private static final String WEBHOOK = "threads.mooring.dev";
    private static final int CALLS = 200;
    private final KubeHttp http = new KubeHttp(Testbed.client());
    private CpuHog hog;
    private LibertyProcess server;

    @AfterEach
    void cleanUp() throws Exception {
        if (hog != null) {
            hog.close();
        }
        for (String plural : List.of("validatingwebhookconfigurations", "mutatingwebhookconfigurations")) {
            String path = "/apis/admissionregistration.k8s.io/v1/" + plural + "/" + WEBHOOK;
            http.getOptional(path, Map.of()).ifPresent(found -> http.send("DELETE", path, Map.of(), null, null));
        }
        if (server != null) {
            server.command("stop");
        }
    }

    @Test
    void admissionIsAnsweredWhileLoopsHoldTheirThreads() throws Exception {
        String namespace = Testbed.createNamespace(new io.kubernetes.client.openapi.apis.CoreV1Api(Testbed.client()), "threads");
        Path dir = Path.of(System.getProperty("mooring.it.failover.dir"), "threads");
        Path ear = Ears.exportWithPackage(dir, "threads.ear", Shards.class, namespace);
        server = LibertyProcess.start("threads", dir.resolve("usr"), ear, Map.of("JVM_ARGS", "-XX:ActiveProcessorCount=2"),
                LibertyProcess.webhookTls());
        Http.Answer ready = Eventually.await("threads server ready", Duration.ofSeconds(120), () -> server.get("/health/ready"),
                answer -> answer.status() == 200);
        assertEquals(10, ready.check("mooring-controllers").getJsonObject("data").keySet().stream()
                .filter(key -> key.startsWith("shard-")).count(), ready.body());
        // where the loops run: Mooring's own threads, none of the pool that serves HTTP ("Default Executor")
        Map<String, List<String>> loops = loopThreads(LibertyPid.of("threads").pid());
        assertEquals(List.of(), loops.getOrDefault("Default Executor", List.of()), "loops on Liberty's request pool");
        assertTrue(loops.getOrDefault("mooring-loop", List.of()).size() >= 10 + 30, "10 informers and 30 workers: " + loops);
        byte[] ca = Files.readAllBytes(Path.of(Testbed.env().getProperty("TESTBED_CA_FILE")));
        for (KubernetesObject configuration : WebhookConfigurations.of(AdmissionRoutes.of(List.of(ThreadsPolicy.class)), List.of(),
                namespace, new WebhookConfigurations.Target(WEBHOOK, "mooring-it", "default", server.httpsPort, ca))) {
            String plural = configuration.getKind().toLowerCase(java.util.Locale.ROOT) + "s";
            http.send("POST", "/apis/admissionregistration.k8s.io/v1/" + plural, Map.of(), Models.toJson(configuration),
                    "application/json");
        }
        String configMaps = "/api/v1/namespaces/" + namespace + "/configmaps";
        Eventually.await("the webhook in effect", Duration.ofSeconds(60), () -> {
            try {
                http.send("POST", configMaps, Map.of(), configMap("probe-" + System.nanoTime(), true), "application/json");
                return false;
            } catch (KubernetesException e) {
                return e.getMessage().contains("ThreadsPolicy denies");
            }
        });
        // the hog: one busy process per processor the server sees
        hog = CpuHog.start(2, Duration.ofMinutes(10));
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> calls = new ArrayList<>();
            for (int i = 0; i < CALLS; i++) {
                String name = "call-" + i;
                boolean deny = i % 2 == 0;
                calls.add(clients.submit(() -> {
                    try {
                        http.send("POST", configMaps, Map.of(), configMap(name, deny), "application/json");
                        return deny ? name + " was created, not denied by the method" : null;
                    } catch (KubernetesException e) {
                        return deny && e.getMessage().contains("ThreadsPolicy denies " + name) ? null : name + ": " + e.getMessage();
                    }
                }));
            }
            List<String> problems = new ArrayList<>();
            for (Future<String> call : calls) {
                String problem = call.get(120, java.util.concurrent.TimeUnit.SECONDS);
                if (problem != null) {
                    problems.add(problem);
                }
            }
            assertTrue(problems.isEmpty(), problems.size() + " of " + CALLS + " calls not answered by the method: "
                    + problems.subList(0, Math.min(5, problems.size())));
        } finally {
            clients.shutdownNow();
        }
    }

    /**
     * The threads of a JVM that are inside a loop of Mooring's (informer, worker, election), by
     * the prefix of their name: {@code Default Executor} (Liberty's pool) or {@code mooring-loop}.
     */
    static Map<String, List<String>> loopThreads(long pid) throws Exception {
        Process jstack = new ProcessBuilder("jstack", Long.toString(pid)).redirectErrorStream(true).start();
        String dump = new String(jstack.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, jstack.waitFor(), dump);
        Map<String, List<String>> byPool = new java.util.TreeMap<>();
        for (String thread : dump.split("\n\n")) {
            if (!thread.startsWith("\"")) {
                continue;
            }
            String name = thread.substring(1, thread.indexOf('"', 1));
            boolean loop = thread.contains("dev.mooring.engine.informer.Informer.run")
                    || thread.contains("dev.mooring.engine.ControllerRunner.work")
                    || thread.contains("dev.mooring.engine.replica.LeaderElector.run");
            if (loop) {
                String pool = name.startsWith("Default Executor") ? "Default Executor"
                        : name.startsWith("mooring-loop") ? "mooring-loop" : "other";
                byPool.computeIfAbsent(pool, key -> new ArrayList<>()).add(name);
            }
        }
        return byPool;
    }

    private static String configMap(String name, boolean deny) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\""
                + (deny ? "deny" : "allow") + "\":\"x\"}}";
    }
}
