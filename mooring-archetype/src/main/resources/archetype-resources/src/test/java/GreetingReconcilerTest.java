package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mooring.test.MooringExtension;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The reconciler with Mooring's engine against a real API server (Mooring's local API server,
 * started for the test run), without Liberty: the CRD comes from {@link Greeting}, the
 * ConfigMap from the reconciler.
 */
class GreetingReconcilerTest {

    @RegisterExtension
    static final MooringExtension mooring = MooringExtension.embedded(new GreetingReconciler());

    @Test
    void aGreetingGetsItsConfigMapAndBecomesReady() {
        mooring.client().create(new Greeting(mooring.namespace(), "hello", "Hello", null));

        V1ConfigMap configMap = mooring.awaitObject(V1ConfigMap.class, "hello", map -> map.getData() != null, Duration.ofSeconds(30));
        assertEquals("Hello", configMap.getData().get("message"));
        assertEquals("en", configMap.getData().get("language"), "the CRD's default");

        mooring.awaitObject(Greeting.class, "hello", greeting -> greeting.getStatus() != null && greeting.getStatus().conditions != null
                && greeting.getStatus().conditions.stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")),
                Duration.ofSeconds(30));
    }
}
