package dev.mooring.engine;

import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.HashMap;
import java.util.Map;

/** The kinds and objects the engine's unit tests share. */
public final class TestKinds {

    /** ConfigMaps, as discovery resolves them. */
    public static final ResourceType<V1ConfigMap> CONFIG_MAPS = new ResourceType<>("", "v1", "ConfigMap", "configmaps", true,
            V1ConfigMap.class);

    private TestKinds() {
    }

    /** A ConfigMap {@code ops/name} with {@code uid}, resourceVersion 1, the labels and the data {@code k=v}. */
    public static V1ConfigMap configMap(String name, String uid, Map<String, String> labels) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ops").name(name).uid(uid).resourceVersion("1")
                .labels(new HashMap<>(labels))).data(new HashMap<>(Map.of("k", "v")));
    }
}
