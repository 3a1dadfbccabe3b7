package dev.mooring.runtime.internal;

import com.google.gson.JsonObject;
import dev.mooring.api.client.ResourceClient;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.json.JsonArray;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** The {@link ResourceClient} that talks to the API server directly. */
public final class LiveResourceClient implements ResourceClient {

    private final KubeHttp http;
    private final ResourceTypes types;
    private final String defaultNamespace;

    /**
     * @param defaultNamespace the namespace used when a call passes none (null: no default)
     */
    public LiveResourceClient(KubeHttp http, ResourceTypes types, String defaultNamespace) {
        this.http = http;
        this.types = types;
        this.defaultNamespace = defaultNamespace;
    }

    private String namespace(String given) {
        return given != null ? given : defaultNamespace;
    }

    @Override
    public <R extends KubernetesObject> Optional<R> get(Class<R> type, String namespace, String name) {
        ResourceType<R> resourceType = types.resolve(type);
        return http.getOptional(resourceType.itemPath(namespace(namespace), name), Map.of())
                .map(json -> Models.fromJson(json, resourceType));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R extends KubernetesObject> R create(R object) {
        Objects.requireNonNull(object.getMetadata(), "object.metadata");
        ResourceType<R> type = types.resolve((Class<R>) object.getClass());
        JsonObject created = http.send("POST", type.collectionPath(namespace(object.getMetadata().getNamespace())), Map.of(),
                Models.toJson(object), "application/json");
        return Models.fromJson(created, type);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R extends KubernetesObject> R patch(R target, JsonArray operations) {
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("An empty JSON Patch changes nothing: skip the write instead");
        }
        ResourceType<R> type = types.resolve((Class<R>) target.getClass());
        JsonObject patched = http.send("PATCH",
                type.itemPath(namespace(target.getMetadata().getNamespace()), target.getMetadata().getName()), Map.of(),
                operations.toString(), "application/json-patch+json");
        return Models.fromJson(patched, type);
    }
}
