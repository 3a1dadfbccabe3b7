package dev.mooring.examples.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.ResourceClient;
import dev.mooring.test.Eventually;
import dev.mooring.test.MooringExtension;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapEnvSource;
import io.kubernetes.client.openapi.models.V1ConfigMapVolumeSource;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1EnvFromSource;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The four pattern controllers running together in one engine, as one application runs them,
 * against Mooring's local API server: each test drives what its pattern is for.
 */
class PatternsTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @RegisterExtension
    static final MooringExtension mooring = MooringExtension.embedded(new BundleController(), new WorkloadController(),
            new ConfigReloader(), new SiteController());

    private final ResourceClient client = mooring.client();

    @Test
    void aBundleKeepsOneConfigMapPerEntryAndPrunesARemovedOne() {
        Bundle created = client.create(new Bundle(mooring.namespace(), "settings", Map.of("frontend", "hello", "backend", "world")));
        mooring.awaitObject(V1ConfigMap.class, "settings-frontend", map -> "hello".equals(map.getData().get("value")), PATIENCE);
        V1ConfigMap backend = mooring.awaitObject(V1ConfigMap.class, "settings-backend", map -> true, PATIENCE);
        assertEquals(created.getMetadata().getUid(), backend.getMetadata().getOwnerReferences().get(0).getUid(),
                "controlled by the Bundle");
        client.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("settings-unrelated")).data(Map.of("value", "mine")));

        client.mutate(client.get(Bundle.class, null, "settings").orElseThrow(), bundle -> bundle.getSpec().entries.remove("backend"));

        mooring.awaitGone(V1ConfigMap.class, "settings-backend", PATIENCE);
        assertEquals(List.of("settings-frontend", "settings-unrelated"), mooring.list(V1ConfigMap.class).stream()
                .map(map -> map.getMetadata().getName()).filter(name -> name.startsWith("settings-")).sorted().toList());
        assertTrue(client.get(V1ConfigMap.class, null, "settings-frontend").isPresent());
        assertTrue(client.get(V1ConfigMap.class, null, "settings-unrelated").isPresent(), "a ConfigMap it does not control is kept");
    }

    @Test
    void aWorkloadCountsThePodsItsSelectorSelectsAndFollowsTheirChanges() {
        client.create(new Workload(mooring.namespace(), "web", Map.of("app", "web")));
        V1Pod first = pod("web-1", Map.of("app", "web", "tier", "front"));
        client.mutateStatus(first, pod -> pod.setStatus(new V1PodStatus().phase("Pending"))); // no kubelet here
        pod("db-1", Map.of("app", "db"));
        awaitSummary(1, 0);

        V1Pod second = pod("web-2", Map.of("app", "web"));
        awaitSummary(2, 0);
        client.mutateStatus(second, pod -> pod.setStatus(new V1PodStatus().phase("Running").conditions(new ArrayList<>(List.of(
                new V1PodCondition().type("Ready").status("True"))))));
        Workload summary = awaitSummary(2, 1);
        assertEquals(Map.of("Pending", 1, "Running", 1), summary.getStatus().phases);

        client.mutate(client.get(V1Pod.class, null, "web-1").orElseThrow(), pod -> pod.getMetadata().getLabels().put("app", "other"));
        awaitSummary(1, 1);
    }

    @Test
    void anOptedInDeploymentRollsWhenAConfigMapItRefersToChangesAndARemovedReferenceRecomputesTheDigest() {
        client.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("app-config")).data(Map.of("mode", "a")));
        client.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("app-env")).data(Map.of("LEVEL", "1")));
        client.create(deployment("app", Map.of(ConfigReloader.OPT_IN, "true"), "app-config", "app-env"));
        client.create(deployment("ignored", Map.of(), "app-config", null));
        String first = awaitDigest("app", Objects::nonNull);

        client.mutate(client.get(V1ConfigMap.class, null, "app-config").orElseThrow(), map -> map.getData().put("mode", "b"));
        String second = awaitDigest("app", digest -> digest != null && !digest.equals(first));

        client.mutate(client.get(V1Deployment.class, null, "app").orElseThrow(),
                deployment -> deployment.getSpec().getTemplate().getSpec().setVolumes(null));
        String third = awaitDigest("app", digest -> digest != null && !digest.equals(second));
        assertNotEquals(first, third);
        client.mutate(client.get(V1Deployment.class, null, "app").orElseThrow(),
                deployment -> deployment.getSpec().getTemplate().getSpec().getContainers().get(0).setEnvFrom(null));
        awaitDigest("app", Objects::isNull);
        assertNull(annotations(client.get(V1Deployment.class, null, "ignored").orElseThrow()).get(ConfigReloader.DIGEST),
                "a Deployment that did not opt in is never written");
    }

    @Test
    void aSitesSettingsFollowTheFirstCaseThatHoldsAndTheChecksumStageFollowsTheSettings() {
        client.create(new Site(mooring.namespace(), "shop", "production"));
        mooring.awaitObject(V1ConfigMap.class, "shop-settings", map -> "3".equals(map.getData().get("replicas")), PATIENCE);
        Site production = mooring.awaitObject(Site.class, "shop", site -> site.getStatus() != null
                && site.getStatus().settingsChecksum != null, PATIENCE);

        client.mutate(client.get(Site.class, null, "shop").orElseThrow(), site -> site.getSpec().environment = "qa");
        V1ConfigMap development = mooring.awaitObject(V1ConfigMap.class, "shop-settings",
                map -> "1".equals(map.getData().get("replicas")), PATIENCE);
        assertEquals("debug", development.getData().get("logLevel"), "no case held: the otherwise branch");
        Site qa = mooring.awaitObject(Site.class, "shop", site -> site.getStatus() != null && site.getStatus().settingsChecksum != null
                && !site.getStatus().settingsChecksum.equals(production.getStatus().settingsChecksum), PATIENCE);
        assertTrue(qa.getStatus().conditions.stream().anyMatch(c -> c.getType().equals("ChecksumRecorded")
                && c.getStatus().equals("True")), "the dependent stage succeeded");
        mooring.awaitObject(Site.class, "shop", site -> site.getStatus() != null
                && Objects.equals(site.getStatus().observedGeneration, site.getMetadata().getGeneration())
                && site.getMetadata().getGeneration() == 2L, PATIENCE);
        assertTrue(mooring.failures().isEmpty(), "no controller failed: " + mooring.failures());
    }

    private V1Pod pod(String name, Map<String, String> labels) {
        return client.create(new V1Pod().metadata(new V1ObjectMeta().name(name).labels(new HashMap<>(labels)))
                .spec(new V1PodSpec().containers(List.of(new V1Container().name("app").image("app:1")))));
    }

    private Workload awaitSummary(int pods, int ready) {
        return mooring.awaitObject(Workload.class, "web", workload -> workload.getStatus() != null
                && Objects.equals(workload.getStatus().pods, pods) && Objects.equals(workload.getStatus().ready, ready), PATIENCE);
    }

    private static V1Deployment deployment(String name, Map<String, String> labels, String volumeConfigMap, String envConfigMap) {
        V1Container container = new V1Container().name("app").image("app:1");
        if (envConfigMap != null) {
            container.envFrom(List.of(new V1EnvFromSource().configMapRef(new V1ConfigMapEnvSource().name(envConfigMap))));
        }
        return new V1Deployment().metadata(new V1ObjectMeta().name(name).labels(labels)).spec(new V1DeploymentSpec()
                .selector(new V1LabelSelector().matchLabels(Map.of("app", name))).template(new V1PodTemplateSpec()
                        .metadata(new V1ObjectMeta().labels(Map.of("app", name)))
                        .spec(new V1PodSpec().containers(List.of(container)).volumes(List.of(new V1Volume().name("config")
                                .configMap(new V1ConfigMapVolumeSource().name(volumeConfigMap)))))));
    }

    private String awaitDigest(String deployment, java.util.function.Predicate<String> accept) {
        return Eventually.await("the digest of " + deployment, PATIENCE,
                () -> annotations(client.get(V1Deployment.class, null, deployment).orElseThrow()).get(ConfigReloader.DIGEST), accept);
    }

    private static Map<String, String> annotations(V1Deployment deployment) {
        V1ObjectMeta metadata = deployment.getSpec().getTemplate().getMetadata();
        return metadata == null || metadata.getAnnotations() == null ? Map.of() : metadata.getAnnotations();
    }
}
