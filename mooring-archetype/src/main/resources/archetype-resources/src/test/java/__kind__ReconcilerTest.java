package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.test.MooringExtension;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The reconciler with Mooring's engine against a real API server (Mooring's local API server,
 * started for the test run), without Liberty: the CRD comes from {@link ${kind}}, the
 * ConfigMap from the reconciler.
 */
class ${kind}ReconcilerTest {

    @RegisterExtension
    static final MooringExtension mooring = MooringExtension.embedded(new ${kind}Reconciler());

    @Test
    void a${kind}GetsItsConfigMapAndBecomesReady() {
        mooring.client().create(new ${kind}(mooring.namespace(), "hello", "Hello", null));

        V1ConfigMap configMap = mooring.awaitObject(V1ConfigMap.class, "hello", map -> map.getData() != null, Duration.ofSeconds(30));
        assertEquals("Hello", configMap.getData().get("message"));
        assertEquals("en", configMap.getData().get("language"), "the CRD's default");

        mooring.awaitObject(${kind}.class, "hello", resource -> resource.getStatus() != null && resource.getStatus().conditions != null
                && resource.getStatus().conditions.stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")),
                Duration.ofSeconds(30));
    }
}
