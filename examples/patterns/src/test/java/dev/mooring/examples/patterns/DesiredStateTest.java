package dev.mooring.examples.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.DesiredStateReconciler;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.test.MooringExtension;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The return-the-desired-object style against the local API server: the differences of the returned object are written. */
class DesiredStateTest {

    /** Labels every ConfigMap labelled team-owned=true with team=blue, by returning it so. */
    @Controller(name = "team-label", labelSelector = "team-owned=true")
    static final class TeamLabel implements DesiredStateReconciler<V1ConfigMap> {
        @Override
        public V1ConfigMap desired(V1ConfigMap map, Context<V1ConfigMap> context) {
            Map<String, String> labels = new HashMap<>(map.getMetadata().getLabels());
            labels.put("team", "blue");
            map.getMetadata().setLabels(labels);
            return map;
        }
    }

    @RegisterExtension
    static final MooringExtension mooring = MooringExtension.embedded(new TeamLabel());

    @Test
    void theReturnedObjectsDifferencesReachTheServer() {
        ResourceClient client = mooring.client();
        client.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("owned").labels(Map.of("team-owned", "true"))));

        V1ConfigMap labelled = mooring.awaitObject(V1ConfigMap.class, "owned",
                map -> "blue".equals(map.getMetadata().getLabels().get("team")), Duration.ofSeconds(30));
        assertEquals("true", labelled.getMetadata().getLabels().get("team-owned"), "the other labels kept");
        // (that an unchanged answer sends no request is ControllerRunnerTest's, which counts them)
    }

    @Test
    void aTestsWriteThatLosesARaceIsTriedAgainByRetryOnConflict() {
        ResourceClient client = mooring.client();
        V1ConfigMap created = client.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("raced")).data(Map.of("a", "1")));
        List<KubernetesException> lost = new ArrayList<>();
        V1ConfigMap written = MooringExtension.retryOnConflict(3, () -> {
            try {
                return client.mutate(created, copy -> {
                    if (lost.isEmpty()) {
                        // another writer wins between mutate's read and its guarded write
                        client.mutate(created, other -> other.getData().put("b", "2"));
                    }
                    copy.getData().put("c", "3");
                });
            } catch (KubernetesException e) {
                lost.add(e);
                throw e;
            }
        });
        assertEquals(1, lost.size(), "one lost race, then a fresh read that wins");
        assertEquals(422, lost.get(0).code(), "a guarded write reports its lost race as a failed test: " + lost.get(0).getMessage());
        assertTrue(lost.get(0).isConflict());
        assertEquals(Map.of("a", "1", "b", "2", "c", "3"), written.getData(), "neither writer's change lost");
    }
}
