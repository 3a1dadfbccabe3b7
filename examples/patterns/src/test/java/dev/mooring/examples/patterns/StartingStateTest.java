package dev.mooring.examples.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ApiGroup;
import dev.mooring.test.Eventually;
import dev.mooring.test.MooringExtension;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A test that starts from a given state: the extension applies a YAML file before the
 * controllers start, with a CRD another operator owns and objects the controller finds in its
 * first list.
 */
class StartingStateTest {

    @RegisterExtension
    static final MooringExtension mooring = MooringExtension.embedded(new ConfigReloader())
            .withManifests(Path.of("src/test/resources/present-at-start.yaml"));

    @Test
    void theFilesObjectsAreThereBeforeTheControllersStartInTheTestsNamespace() {
        V1Deployment early = mooring.client().get(V1Deployment.class, null, "early").orElseThrow();
        assertEquals(mooring.namespace(), early.getMetadata().getNamespace(), "a namespaced object without one goes into the test's");
        String digest = Eventually.await("the digest of a Deployment there before the start", Duration.ofSeconds(30),
                () -> {
                    V1Deployment current = mooring.client().get(V1Deployment.class, null, "early").orElseThrow();
                    Map<String, String> annotations = current.getSpec().getTemplate().getMetadata().getAnnotations();
                    return annotations == null ? null : annotations.get(ConfigReloader.DIGEST);
                }, Objects::nonNull);
        assertTrue(digest.matches("[0-9a-f]{32}"), digest);
    }

    @Test
    void aForeignCrdIsEstablishedAndItsObjectCreated() {
        V1CustomResourceDefinition crd = mooring.client().get(V1CustomResourceDefinition.class, null, "backups.storage.example.com")
                .orElseThrow();
        assertTrue(crd.getStatus().getConditions().stream()
                .anyMatch(condition -> condition.getType().equals("Established") && condition.getStatus().equals("True")));
        V1Backup nightly = mooring.client().get(V1Backup.class, null, "nightly").orElseThrow();
        assertEquals("0 3 * * *", nightly.spec.get("schedule"));
    }

    /** The other operator's kind, as client-java's generator would model it from its CRD. */
    @ApiGroup("storage.example.com")
    public static final class V1Backup implements KubernetesObject {
        private String apiVersion;
        private String kind;
        private V1ObjectMeta metadata;
        public Map<String, String> spec;

        @Override
        public String getApiVersion() {
            return apiVersion;
        }

        @Override
        public String getKind() {
            return kind;
        }

        @Override
        public V1ObjectMeta getMetadata() {
            return metadata;
        }
    }
}
