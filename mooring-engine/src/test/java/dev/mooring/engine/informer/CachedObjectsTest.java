package dev.mooring.engine.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.gson.JsonParser;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the cache keeps of a decoded object: no managed fields, one instance of the strings every object repeats. */
class CachedObjectsTest {

    private static V1ConfigMap decode(String name) {
        // each document parsed on its own, as each list item and watch event is: no instance shared by the parser
        return CachedObjects.decode(JsonParser.parseString("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{"
                + "\"name\":\"" + name + "\",\"namespace\":\"" + new String("shop".toCharArray()) + "\","
                + "\"labels\":{\"app.kubernetes.io/name\":\"" + name + "\"},\"annotations\":{\"note\":\"n\"},"
                + "\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"web\",\"uid\":\"u\"}],"
                + "\"finalizers\":[\"example.com/cleanup\"],"
                + "\"managedFields\":[{\"manager\":\"kubectl\",\"operation\":\"Update\"}]},\"data\":{\"k\":\"v\"}}")
                .getAsJsonObject(), new ResourceType<>("", "v1", "ConfigMap", "configmaps", true, V1ConfigMap.class));
    }

    @Test
    void repeatedStringsAreOneInstanceAcrossObjectsAndValuesAreKept() {
        V1ConfigMap a = decode("a");
        V1ConfigMap b = decode("b");
        assertSame(a.getMetadata().getNamespace(), b.getMetadata().getNamespace());
        assertSame(a.getApiVersion(), b.getApiVersion());
        assertSame(a.getKind(), b.getKind());
        assertSame(key(a.getMetadata().getLabels()), key(b.getMetadata().getLabels()));
        assertSame(key(a.getMetadata().getAnnotations()), key(b.getMetadata().getAnnotations()));
        assertSame(a.getMetadata().getOwnerReferences().get(0).getKind(), b.getMetadata().getOwnerReferences().get(0).getKind());
        assertSame(a.getMetadata().getOwnerReferences().get(0).getApiVersion(),
                b.getMetadata().getOwnerReferences().get(0).getApiVersion());
        assertSame(a.getMetadata().getFinalizers().get(0), b.getMetadata().getFinalizers().get(0));
        assertNotSame(a.getData().get("k"), b.getData().get("k"), "data values are not interned");

        assertEquals("shop", a.getMetadata().getNamespace());
        assertEquals(Map.of("app.kubernetes.io/name", "a"), a.getMetadata().getLabels());
        assertEquals(List.of("example.com/cleanup"), a.getMetadata().getFinalizers());
        assertEquals(Map.of("k", "v"), a.getData());
        assertNull(a.getMetadata().getManagedFields(), "managed fields are not cached");
    }

    private static String key(Map<String, String> map) {
        return map.keySet().iterator().next();
    }
}
