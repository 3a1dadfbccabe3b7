package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.DeleteOptions;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.engine.client.LiveResourceClient;
import dev.mooring.engine.kube.DiscoveredKinds;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1JobStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where operators depend on what Kubernetes does, the local API server does the same: a Job's
 * default deletion orphans its Pods, Job status writes are validated as Kubernetes 1.36
 * validates them, and {@code kubectl get} prints Kubernetes' columns. A tutorial's test that
 * passes here passes against a cluster.
 */
class KubernetesParityIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final ApiClient api = Testbed.client();
    private final CoreV1Api core = new CoreV1Api(api);
    private ResourceClient client;
    private String namespace;

    @BeforeEach
    void setUp() throws ApiException {
        namespace = Testbed.createNamespace(core, "parity");
        KubeHttp http = new KubeHttp(api);
        client = new LiveResourceClient(http, new DiscoveredKinds(http), namespace);
    }

    private V1Job job(String name) {
        return client.create(new V1Job().metadata(new V1ObjectMeta().name(name)).spec(new V1JobSpec()
                .template(new V1PodTemplateSpec().spec(new V1PodSpec().restartPolicy("Never")
                        .addContainersItem(new V1Container().name("work").image("busybox"))))));
    }

    private V1Pod podOf(V1Job job, String name) {
        return client.create(new V1Pod().metadata(new V1ObjectMeta().name(name).ownerReferences(List.of(new V1OwnerReference()
                .apiVersion("batch/v1").kind("Job").name(job.getMetadata().getName()).uid(job.getMetadata().getUid())
                .controller(true).blockOwnerDeletion(true))))
                .spec(new V1PodSpec().addContainersItem(new V1Container().name("work").image("busybox"))));
    }

    @Test
    void aJobsDefaultDeletionOrphansItsPodsAndBackgroundDeletesThem() {
        V1Job kept = job("kept");
        podOf(kept, "kept-pod");
        assertTrue(client.delete(V1Job.class, null, "kept", DeleteOptions.DEFAULT), "no propagation policy: batch/v1's default");
        Eventually.await("Job kept to be gone", PATIENCE, () -> client.get(V1Job.class, null, "kept").isEmpty());
        Eventually.await("the Pod's owner reference to be removed", PATIENCE, () -> client.get(V1Pod.class, null, "kept-pod")
                .map(pod -> pod.getMetadata().getOwnerReferences() == null || pod.getMetadata().getOwnerReferences().isEmpty())
                .orElseThrow(() -> new AssertionError("the Pod of a Job deleted without a policy was deleted")));

        V1Job gone = job("gone");
        podOf(gone, "gone-pod");
        client.delete(V1Job.class, null, "gone", DeleteOptions.DEFAULT.withPropagation(DeleteOptions.Propagation.BACKGROUND));
        Eventually.await("the Pod of a Job deleted in the background to be gone", PATIENCE,
                () -> client.get(V1Pod.class, null, "gone-pod").isEmpty());
    }

    private static V1JobCondition condition(String type) {
        return new V1JobCondition().type(type).status("True").reason(type).message(type);
    }

    private KubernetesException refusedStatus(V1Job job, V1JobStatus status) {
        V1Job stale = client.get(V1Job.class, null, job.getMetadata().getName()).orElseThrow();
        return assertThrows(KubernetesException.class, () -> client.updateStatus(stale.status(status)));
    }

    @Test
    void jobStatusWritesAreValidatedAsKubernetes136ValidatesThem() {
        V1Job job = job("validated");
        OffsetDateTime start = OffsetDateTime.of(2030, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

        KubernetesException incomplete = refusedStatus(job, new V1JobStatus().conditions(List.of(condition("Complete"))));
        assertEquals(422, incomplete.code(), incomplete.getMessage());
        for (String named : List.of("SuccessCriteriaMet", "completionTime", "startTime")) {
            assertTrue(incomplete.getMessage().contains(named), "names " + named + ": " + incomplete.getMessage());
        }
        KubernetesException backwards = refusedStatus(job, new V1JobStatus().startTime(start).completionTime(start.minusSeconds(1))
                .succeeded(1).conditions(List.of(condition("SuccessCriteriaMet"), condition("Complete"))));
        assertTrue(backwards.getMessage().contains("completionTime cannot be set before startTime"), backwards.getMessage());
        KubernetesException failedWithoutTarget = refusedStatus(job, new V1JobStatus().startTime(start).failed(1)
                .conditions(List.of(condition("Failed"))));
        assertTrue(failedWithoutTarget.getMessage().contains("FailureTarget"), failedWithoutTarget.getMessage());

        V1Job running = client.updateStatus(client.get(V1Job.class, null, "validated").orElseThrow()
                .status(new V1JobStatus().startTime(start).active(1).ready(1)));
        assertEquals(1, running.getStatus().getActive(), "a running Job's status is accepted");
        V1Job complete = client.updateStatus(running.status(new V1JobStatus().startTime(start).completionTime(start.plusSeconds(5))
                .succeeded(1).active(0).ready(0).conditions(List.of(condition("SuccessCriteriaMet"), condition("Complete")))));
        assertEquals("Complete", complete.getStatus().getConditions().get(1).getType(), "what the Job controller writes is accepted");

        KubernetesException undone = refusedStatus(job, new V1JobStatus().startTime(start).succeeded(1)
                .conditions(List.of(condition("SuccessCriteriaMet"))));
        assertTrue(undone.getMessage().contains("cannot disable the terminal Complete=True condition"), undone.getMessage());
        KubernetesException fewer = refusedStatus(job, new V1JobStatus().startTime(start).completionTime(start.plusSeconds(5))
                .succeeded(0).conditions(List.of(condition("SuccessCriteriaMet"), condition("Complete"))));
        assertTrue(fewer.getMessage().contains("cannot decrease the succeeded counter"), fewer.getMessage());
    }

    private JsonObject table(String path) throws IOException {
        Request request = new Request.Builder().url(api.getBasePath() + path)
                .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").build();
        try (Response response = api.getHttpClient().newCall(request).execute()) {
            assertEquals(200, response.code(), path);
            return Json.createReader(new StringReader(response.body().string())).readObject();
        }
    }

    private static List<String> columns(JsonObject table, int priority) {
        return table.getJsonArray("columnDefinitions").getValuesAs(JsonObject.class).stream()
                .filter(column -> column.getInt("priority", 0) == priority).map(column -> column.getString("name")).toList();
    }

    @Test
    void kubectlGetPrintsKubernetesColumnsForTheBuiltInKinds() throws IOException {
        V1Job job = job("listed");
        podOf(job, "listed-pod");
        client.create(new io.kubernetes.client.openapi.models.V1ConfigMap().metadata(new V1ObjectMeta().name("listed"))
                .data(Map.of("a", "1", "b", "2")));
        Map<String, List<String>> expected = Map.of(
                "/api/v1/namespaces/" + namespace + "/pods", List.of("Name", "Ready", "Status", "Restarts", "Age"),
                "/apis/apps/v1/namespaces/" + namespace + "/deployments", List.of("Name", "Ready", "Up-to-date", "Available", "Age"),
                "/apis/batch/v1/namespaces/" + namespace + "/jobs", List.of("Name", "Status", "Completions", "Duration", "Age"),
                "/api/v1/namespaces/" + namespace + "/configmaps", List.of("Name", "Data", "Age"),
                "/api/v1/namespaces/" + namespace + "/services", List.of("Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age"),
                "/api/v1/namespaces", List.of("Name", "Status", "Age"));
        for (Map.Entry<String, List<String>> kind : expected.entrySet()) {
            assertEquals(kind.getValue(), columns(table(kind.getKey()), 0), kind.getKey());
        }
        JsonObject jobs = table("/apis/batch/v1/namespaces/" + namespace + "/jobs");
        assertEquals(List.of("Containers", "Images", "Selector"), columns(jobs, 1), "-o wide");
        List<JsonValue> row = jobs.getJsonArray("rows").getJsonObject(0).getJsonArray("cells");
        assertEquals(List.of("listed", "Running", "0/1", ""), row.subList(0, 4).stream()
                .map(cell -> ((jakarta.json.JsonString) cell).getString()).toList());
        List<JsonValue> configMap = table("/api/v1/namespaces/" + namespace + "/configmaps").getJsonArray("rows").getJsonObject(0)
                .getJsonArray("cells");
        assertEquals(2, ((jakarta.json.JsonNumber) configMap.get(1)).intValue(), "DATA counts the keys");
        List<JsonValue> pod = table("/api/v1/namespaces/" + namespace + "/pods").getJsonArray("rows").getJsonObject(0)
                .getJsonArray("cells");
        assertEquals("0/1", ((jakarta.json.JsonString) pod.get(1)).getString(), "READY is ready/total containers");
    }
}
