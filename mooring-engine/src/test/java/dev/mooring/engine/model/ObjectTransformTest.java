package dev.mooring.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.CacheTransform;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Pod;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The signature and placement rules of {@code @CacheTransform} methods, and the call. */
class ObjectTransformTest {

    static class Shapes {
        @CacheTransform
        V1ConfigMap withoutData(V1ConfigMap map) {
            map.setData(null);
            return map;
        }

        @CacheTransform
        V1ConfigMap again(V1ConfigMap map) {
            return map;
        }

        @CacheTransform
        Object wrongReturn(V1ConfigMap map) {
            return map;
        }

        @CacheTransform
        V1Pod pods(V1Pod pod) {
            return pod;
        }
    }

    private static Method method(String name) throws NoSuchMethodException {
        for (Method method : Shapes.class.getDeclaredMethods()) {
            if (method.getName().equals(name)) {
                return method;
            }
        }
        throw new NoSuchMethodException(name);
    }

    @Test
    void aTransformCallsTheMethodOnTheBean() throws Exception {
        List<ObjectTransform> transforms = ObjectTransform.of(new Shapes(), List.of(method("withoutData")),
                List.of(V1ConfigMap.class), "maps");
        assertEquals(1, transforms.size());
        assertEquals(V1ConfigMap.class, transforms.get(0).kind());
        assertEquals("Shapes.withoutData", transforms.get(0).description());
        V1ConfigMap shaped = (V1ConfigMap) transforms.get(0).transform().apply(new V1ConfigMap().data(Map.of("k", "v")));
        assertNull(shaped.getData());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> ObjectTransform.of(new Shapes(),
                List.of(method("pods")), List.of(V1ConfigMap.class), "maps"), "of() checks before it makes transforms");
    }

    @Test
    void wrongSignaturesUnwatchedKindsAndASecondTransformOfAKindAreRefusedNamingTheMethod() {
        IllegalArgumentException returns = assertThrows(IllegalArgumentException.class,
                () -> ObjectTransform.check(List.of(method("wrongReturn")), List.of(V1ConfigMap.class), "maps"));
        assertTrue(returns.getMessage().contains("wrongReturn") && returns.getMessage().contains("must return"), returns.getMessage());
        IllegalArgumentException unwatched = assertThrows(IllegalArgumentException.class,
                () -> ObjectTransform.check(List.of(method("pods")), List.of(V1ConfigMap.class), "maps"));
        assertTrue(unwatched.getMessage().contains("Shapes.pods shapes V1Pod, which controller maps does not watch"),
                unwatched.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> ObjectTransform.check(List.of(method("withoutData"), method("again")), List.of(V1ConfigMap.class), "maps"));
        assertTrue(twice.getMessage().contains("second transform of V1ConfigMap"), twice.getMessage());
    }
}
