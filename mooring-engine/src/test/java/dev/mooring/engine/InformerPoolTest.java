package dev.mooring.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.ResourceType;
import dev.mooring.engine.model.ObjectTransform;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Which sources share an informer (nothing is started: no request is sent). */
class InformerPoolTest {

    private static final ResourceType<V1ConfigMap> CONFIG_MAPS = new ResourceType<>("", "v1", "ConfigMap", "configmaps", true,
            V1ConfigMap.class);
    private static final Duration RESYNC = Duration.ofMinutes(5);

    private final KubeHttp http = new KubeHttp(new ApiClient().setBasePath("http://api.invalid"));
    private final InformerPool pool = new InformerPool(http, http, Duration.ofSeconds(4));

    @Test
    void aShapedCacheIsItsControllersOwnAndTheOthersStillShareTheWholeOne() {
        ObjectTransform trim = new ObjectTransform(V1ConfigMap.class, "Trim.data", object -> object);
        Informer<V1ConfigMap> whole = pool.acquire(CONFIG_MAPS, "ops", null, RESYNC);
        assertSame(whole, pool.acquire(CONFIG_MAPS, "ops", null, RESYNC, "other", null), "unshaped: shared");
        Informer<V1ConfigMap> shaped = pool.acquire(CONFIG_MAPS, "ops", null, RESYNC, "trimming", trim);
        assertNotSame(whole, shaped);
        assertSame(shaped, pool.acquire(CONFIG_MAPS, "ops", null, RESYNC, "trimming", trim), "the same controller's sources share it");
        assertNotSame(shaped, pool.acquire(CONFIG_MAPS, "ops", null, RESYNC, "another", trim), "another controller's transform: its own");
        assertEquals(3, pool.count());
    }
}
