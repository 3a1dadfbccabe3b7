package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.api.client.WaitCondition;
import dev.mooring.api.client.WaitTimeoutException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a wait refuses or ends before its watch: no HTTP client is given, so any request would fail the test. */
class ObjectWaitTest {

    private static final ResourceType<V1ConfigMap> CONFIG_MAPS = new ResourceType<>("", "v1", "ConfigMap", "configmaps", true,
            V1ConfigMap.class);
    private static final V1ConfigMap MAP = new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name("settings"));

    @Test
    void aWaitWithoutConditionsOrForAnUnnamedObjectIsRefused() {
        assertEquals("A wait needs at least one condition", assertThrows(IllegalArgumentException.class,
                () -> ObjectWait.await(null, CONFIG_MAPS, "ops", MAP, Map.of(), Duration.ofSeconds(5))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ObjectWait.await(null, CONFIG_MAPS, "ops",
                new V1ConfigMap().metadata(new V1ObjectMeta()), Map.of("gone", WaitCondition.deleted()), Duration.ofSeconds(5)));
    }

    @Test
    void aZeroTimeoutTimesOutAtOnceNamingWhatWasAwaited() {
        Map<String, WaitCondition<? super V1ConfigMap>> conditions = new LinkedHashMap<>();
        conditions.put("filled", WaitCondition.matches(map -> map.getData() != null));
        conditions.put("deleted", WaitCondition.deleted());
        WaitTimeoutException timeout = assertThrows(WaitTimeoutException.class,
                () -> ObjectWait.await(null, CONFIG_MAPS, "ops", MAP, conditions, Duration.ZERO));
        assertEquals("Timed out after 0 ms waiting for ConfigMap ops/settings to be filled or deleted", timeout.getMessage());
    }
}
