package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.DeleteOptions;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.ListOptions;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.api.client.ResourceList;
import dev.mooring.api.client.ResourceWatch;
import dev.mooring.api.client.WaitCondition;
import dev.mooring.api.client.WaitTimeoutException;
import dev.mooring.api.client.WatchEvent;
import dev.mooring.api.client.WatchOptions;
import dev.mooring.api.client.WriteOptions;
import dev.mooring.engine.client.LiveResourceClient;
import dev.mooring.engine.kube.DiscoveredKinds;
import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The live client's reads, lists, watches, replaces, deletes, scale and waits against the real
 * API server, with every request counted: what the server decides (paging, conflicts,
 * preconditions, dry runs, foreground deletion, compacted history) is its own.
 */
class LiveClientIT {

    private final CoreV1Api core = new CoreV1Api(Testbed.client());
    private final RequestCounter counter = new RequestCounter();
    private final ExecutorService background = Executors.newSingleThreadExecutor();
    private ResourceClient client;
    private String namespace;

    @BeforeEach
    void setUp() throws ApiException {
        namespace = Testbed.createNamespace(core, "client");
        KubeHttp http = new KubeHttp(counter.client());
        client = new LiveResourceClient(http, new DiscoveredKinds(http), namespace);
    }

    @AfterEach
    void tearDown() {
        background.shutdownNow();
    }

    private static V1ConfigMap configMap(String name, Map<String, String> labels) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(labels)).data(Map.of("k", name));
    }

    @Test
    void aListFollowsItsPagesAsTheIterationReachesThemAndSelectsByLabel() {
        for (int i = 0; i < 5; i++) {
            client.create(configMap("page-" + i, Map.of("tier", i % 2 == 0 ? "even" : "odd")));
        }
        client.list(V1ConfigMap.class, null); // discovery, not counted below
        counter.requests.clear();

        ResourceList<V1ConfigMap> first = client.list(V1ConfigMap.class, null, ListOptions.DEFAULT.withPageSize(2));

        assertEquals(2, first.items().size());
        assertTrue(first.hasNextPage());
        assertEquals(3, first.remainingItemCount().orElseThrow(), "the server's estimate beyond the first page");
        assertNotNull(first.resourceVersion());
        assertEquals(1, counter.requests.size(), "one page read: " + counter.requests);
        List<String> names = first.stream().map(map -> map.getMetadata().getName()).toList();
        assertEquals(List.of("page-0", "page-1", "page-2", "page-3", "page-4"), names);
        assertEquals(3, counter.requests.size(), "a request per page: " + counter.requests);

        List<String> even = client.list(V1ConfigMap.class, null, ListOptions.DEFAULT.withLabelSelector("tier=even")).stream()
                .map(map -> map.getMetadata().getName()).toList();
        assertEquals(List.of("page-0", "page-2", "page-4"), even);
        KubernetesException malformed = assertThrows(KubernetesException.class,
                () -> client.list(V1ConfigMap.class, null, ListOptions.DEFAULT.withLabelSelector("tier in (")));
        assertEquals(400, malformed.code());
    }

    @Test
    void aWatchDeliversChangesAfterItsResourceVersionInOrder() throws Exception {
        V1ConfigMap created = client.create(configMap("watched", Map.of()));
        try (ResourceWatch<V1ConfigMap> watch = client.watch(V1ConfigMap.class, null,
                WatchOptions.DEFAULT.from(created.getMetadata().getResourceVersion()))) {
            Future<List<String>> events = background.submit(() -> {
                List<String> seen = new ArrayList<>();
                for (WatchEvent<V1ConfigMap> event : watch) {
                    if (event.type() != WatchEvent.Type.BOOKMARK) {
                        seen.add(event.type() + " " + event.object().getMetadata().getName());
                    }
                    if (seen.size() == 3) {
                        return seen;
                    }
                }
                return seen;
            });
            client.mutate(created, copy -> copy.getData().put("k", "changed"));
            client.create(configMap("second", Map.of()));
            client.delete(client.get(V1ConfigMap.class, null, "watched").orElseThrow());
            assertEquals(List.of("MODIFIED watched", "ADDED second", "DELETED watched"), events.get(30, TimeUnit.SECONDS));
        }
    }

    /**
     * On an instance of its own: an object's old resourceVersion, etcd compacted, the API server
     * restarted (its watch cache starts at the current revision), so a watch from the old version
     * gets the server's 410 Gone.
     */
    @Test
    void anExpiredHistoryEndsAWatchThatSaysSoAndRestartsOneThatDoesNot() throws Exception {
        Path runDir = Testbed.runDir().resolveSibling("testbed-expired");
        Properties env = Testbed.up(runDir);
        try {
            KubeHttp http = new KubeHttp(Config.fromConfig(runDir.resolve("admin.kubeconfig").toString()));
            ResourceClient other = new LiveResourceClient(http, new DiscoveredKinds(http), "default");
            V1ConfigMap created = other.create(configMap("old", Map.of()));
            String old = created.getMetadata().getResourceVersion();
            other.mutate(created, copy -> copy.getData().put("k", "newer"));
            Testbed.compactEtcd(env);
            Testbed.down(runDir);
            Testbed.restart(runDir, Integer.parseInt(env.getProperty("TESTBED_PORT")));

            try (ResourceWatch<V1ConfigMap> failing = other.watch(V1ConfigMap.class, null,
                    WatchOptions.DEFAULT.from(old).failingWhenExpired())) {
                KubernetesException gone = assertThrows(KubernetesException.class, () -> failing.iterator().hasNext());
                assertEquals(410, gone.code(), gone.getMessage());
            }
            try (ResourceWatch<V1ConfigMap> restarting = other.watch(V1ConfigMap.class, null, WatchOptions.DEFAULT.from(old))) {
                WatchEvent<V1ConfigMap> first = background.submit(() -> restarting.iterator().next()).get(30, TimeUnit.SECONDS);
                assertEquals(WatchEvent.Type.ADDED, first.type(), "started again from the current objects");
                assertEquals("newer", first.object().getData().get("k"));
            }
        } finally {
            Testbed.down(runDir);
        }
    }

    @Test
    void updateAndSaveKeepOptimisticConcurrency() {
        V1ConfigMap created = client.create(configMap("u", Map.of()));
        V1ConfigMap updated = client.update(configMap("u", Map.of("v", "2")).metadata(created.getMetadata().labels(Map.of("v", "2"))));
        assertEquals(Map.of("v", "2"), updated.getMetadata().getLabels());
        KubernetesException stale = assertThrows(KubernetesException.class, () -> client.update(created));
        assertTrue(stale.isConflict(), stale.getMessage());

        V1ConfigMap saved = client.save(configMap("u", Map.of("v", "3")));
        assertEquals(Map.of("v", "3"), saved.getMetadata().getLabels(), "named, no resourceVersion: replaced at the stored one");
        V1ConfigMap fresh = client.save(configMap("fresh", Map.of()));
        assertEquals("fresh", client.get(V1ConfigMap.class, null, "fresh").orElseThrow().getMetadata().getName());
        V1ConfigMap generated = client.save(new V1ConfigMap().metadata(new V1ObjectMeta().generateName("gen-")));
        assertTrue(generated.getMetadata().getName().startsWith("gen-"), "unnamed: created with a generated name");
        client.mutate(fresh, copy -> copy.getData().put("k", "changed meanwhile"));
        assertTrue(assertThrows(KubernetesException.class, () -> client.save(fresh)).isConflict(),
                "a stale resourceVersion is not overwritten");
    }

    @Test
    void dryRunsChangeNothing() {
        V1ConfigMap dry = client.create(configMap("dry", Map.of()), WriteOptions.DRY_RUN);
        assertEquals("dry", dry.getMetadata().getName());
        assertTrue(client.get(V1ConfigMap.class, null, "dry").isEmpty(), "a dry-run create stores nothing");

        V1ConfigMap stored = client.create(configMap("real", Map.of()));
        client.update(configMap("real", Map.of("x", "1")).metadata(stored.getMetadata().labels(Map.of("x", "1"))), WriteOptions.DRY_RUN);
        client.apply(configMap("real", Map.of("y", "1")), "live-client-it", WriteOptions.DRY_RUN);
        assertTrue(client.delete(V1ConfigMap.class, null, "real", DeleteOptions.DEFAULT.asDryRun()));
        V1ConfigMap after = client.get(V1ConfigMap.class, null, "real").orElseThrow();
        assertEquals(stored.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion(), "nothing was written");
    }

    @Test
    void deleteOptionsReachTheServerPreconditionsByUidAloneIncluded() {
        V1ConfigMap first = client.create(configMap("d", Map.of()));
        client.mutate(first, copy -> copy.getData().put("k", "changed"));
        KubernetesException wrongUid = assertThrows(KubernetesException.class,
                () -> client.delete(V1ConfigMap.class, null, "d", DeleteOptions.DEFAULT.withUid("not-" + first.getMetadata().getUid())));
        assertEquals(409, wrongUid.code());
        assertTrue(client.delete(first, DeleteOptions.DEFAULT.withUid(first.getMetadata().getUid())),
                "the UID alone: deleted although its resourceVersion changed");
        assertFalse(client.delete(V1ConfigMap.class, null, "d", DeleteOptions.DEFAULT), "already gone");

        // this API server runs no garbage collector: what reached it is read from its audit log (Secrets are audited)
        client.create(new V1Secret().metadata(new V1ObjectMeta().name("propagated")).stringData(Map.of("k", "v")));
        assertTrue(client.delete(V1Secret.class, null, "propagated", DeleteOptions.DEFAULT
                .withPropagation(DeleteOptions.Propagation.FOREGROUND).withGracePeriod(Duration.ZERO)));
        String delete = auditRecord("delete");
        assertTrue(delete.contains("propagationPolicy=Foreground") && delete.contains("gracePeriodSeconds=0"), delete);
    }

    @Test
    void scaleGoesThroughTheScaleSubresourceAndAKindWithoutOneIsRefusedBeforeAnyRequest() {
        V1Deployment deployment = client.create(new V1Deployment().metadata(new V1ObjectMeta().name("web")).spec(new V1DeploymentSpec()
                .replicas(1).selector(new V1LabelSelector().matchLabels(Map.of("app", "web"))).template(new V1PodTemplateSpec()
                        .metadata(new V1ObjectMeta().labels(Map.of("app", "web")))
                        .spec(new V1PodSpec().containers(List.of(new V1Container().name("web").image("web:1")))))));
        V1Deployment scaled = client.scale(deployment, 3);
        assertEquals(3, scaled.getSpec().getReplicas());

        V1ConfigMap map = client.create(configMap("noscale", Map.of()));
        counter.requests.clear();
        assertEquals("ConfigMap (v1) has no scale subresource on this API server",
                assertThrows(IllegalArgumentException.class, () -> client.scale(map, 2)).getMessage());
        assertEquals("ConfigMap (v1) has no status subresource on this API server",
                assertThrows(IllegalArgumentException.class, () -> client.updateStatus(map)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> client.get(V1ConfigMap.class, null, null));
        assertThrows(IllegalArgumentException.class, () -> client.update(new V1ConfigMap().metadata(new V1ObjectMeta())));
        assertThrows(IllegalArgumentException.class, () -> client.delete(V1ConfigMap.class, null, null, DeleteOptions.DEFAULT));
        assertEquals(List.of(), counter.requests, "refused before any request");
    }

    @Test
    void aWaitEndsWithTheFirstConditionThatHoldsDeletionIncludedAndATimeoutNamesWhatWasAwaited() throws Exception {
        V1ConfigMap created = client.create(configMap("w", Map.of()));
        Map<String, WaitCondition<? super V1ConfigMap>> conditions = new LinkedHashMap<>();
        conditions.put("labelled", WaitCondition.matches(map -> map.getMetadata().getLabels() != null
                && map.getMetadata().getLabels().containsKey("ready")));
        conditions.put("gone", WaitCondition.deleted());
        // from the object's resourceVersion: a change made before the watch starts still counts
        Future<String> waited = background.submit(() -> client.waitFor(created, conditions, Duration.ofSeconds(30)));
        client.mutate(created, copy -> copy.getMetadata().setLabels(Map.of("ready", "yes")));
        assertEquals("labelled", waited.get(30, TimeUnit.SECONDS));

        V1ConfigMap labelled = client.get(V1ConfigMap.class, null, "w").orElseThrow();
        Future<String> deletion = background.submit(() -> client.waitFor(labelled, conditions, Duration.ofSeconds(30)));
        client.delete(labelled);
        assertEquals("gone", deletion.get(30, TimeUnit.SECONDS), "the labelled condition held before, but only changes after count");

        V1ConfigMap other = client.create(configMap("never", Map.of()));
        WaitTimeoutException timeout = assertThrows(WaitTimeoutException.class,
                () -> client.waitFor(other, conditions, Duration.ofSeconds(2)));
        assertEquals("Timed out after 2000 ms waiting for ConfigMap " + namespace + "/never to be labelled or gone", timeout.getMessage());
    }

    @Test
    void everyRequestSaysItIsMooringsInTheAuditLog() throws Exception {
        client.create(new V1Secret().metadata(new V1ObjectMeta().name("audited")).stringData(Map.of("k", "v")));
        String line = auditRecord("create");
        assertTrue(line.contains("\"userAgent\":\"" + KubeHttp.USER_AGENT + "\""), line);
        assertTrue(KubeHttp.USER_AGENT.matches("Mooring/\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), KubeHttp.USER_AGENT);
    }

    /** The audit record of this test's namespace's Secret request with {@code verb}. */
    private String auditRecord(String verb) {
        Path audit = Path.of(System.getProperty("mooring.it.testbed.audit"));
        return dev.mooring.test.Eventually.await("the audit record of a Secret " + verb, Duration.ofSeconds(10),
                () -> Files.readAllLines(audit).stream().filter(record -> record.contains("\"namespace\":\"" + namespace + "\"")
                        && record.contains("\"verb\":\"" + verb + "\"")).findFirst().orElse(null), record -> record != null);
    }
}
