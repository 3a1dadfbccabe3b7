package dev.mooring.engine.kube;

import com.google.gson.JsonObject;
import dev.mooring.api.TerminalException;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.PatchOptions;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.api.patch.Patches;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.json.JsonArray;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/** The {@link ResourceClient} that talks to the API server directly. */
public final class LiveResourceClient implements EngineClient {

    private final KubeHttp http;
    private final DiscoveredKinds types;
    private final String defaultNamespace;

    /**
     * @param defaultNamespace the namespace used when a call passes none (null: no default)
     */
    public LiveResourceClient(KubeHttp http, DiscoveredKinds types, String defaultNamespace) {
        this.http = http;
        this.types = types;
        this.defaultNamespace = defaultNamespace;
    }

    private String namespace(String given) {
        return given != null ? given : defaultNamespace;
    }

    @SuppressWarnings("unchecked")
    private <R extends KubernetesObject> ResourceType<R> typeOf(R object) {
        return types.resolve((Class<R>) object.getClass());
    }

    @Override
    public <R extends KubernetesObject> Optional<R> get(Class<R> type, String namespace, String name) {
        ResourceType<R> resourceType = types.resolve(type);
        return http.getOptional(resourceType.itemPath(namespace(namespace), name), Map.of())
                .map(json -> Models.fromJson(json, resourceType));
    }

    @Override
    public <R extends KubernetesObject> R create(R object) {
        Objects.requireNonNull(object.getMetadata(), "object.metadata");
        ResourceType<R> type = typeOf(object);
        JsonObject created = http.send("POST", type.collectionPath(namespace(object.getMetadata().getNamespace())), Map.of(),
                Models.toJson(object), "application/json");
        return Models.fromJson(created, type);
    }

    @Override
    public <R extends KubernetesObject> R patch(R target, JsonArray operations, PatchOptions options) {
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("An empty JSON Patch changes nothing: skip the write instead");
        }
        ResourceType<R> type = typeOf(target);
        String path = type.itemPath(namespace(target.getMetadata().getNamespace()), target.getMetadata().getName())
                + (options.status() ? "/status" : "");
        JsonObject patched = http.send("PATCH", path, options.dryRun() ? Map.of("dryRun", "All") : Map.of(),
                operations.toString(), "application/json-patch+json");
        return Models.fromJson(patched, type);
    }

    @Override
    public <R extends KubernetesObject> R mutate(R resource, Consumer<R> change) {
        return mutate(resource, change, false);
    }

    @Override
    public <R extends KubernetesObject> R mutateStatus(R resource, Consumer<R> change) {
        return mutate(resource, change, true);
    }

    private <R extends KubernetesObject> R mutate(R resource, Consumer<R> change, boolean status) {
        V1ObjectMeta meta = resource.getMetadata();
        if (meta == null || meta.getName() == null || meta.getUid() == null) {
            throw new IllegalArgumentException("mutate needs a fetched object with metadata.name and metadata.uid");
        }
        return change(readLive(resource), change, status);
    }

    /** The guarded write of {@code change} to {@code live}, an object just read from the server (not read again). */
    private <R extends KubernetesObject> R change(R live, Consumer<R> change, boolean status) {
        R copy = Models.copy(live);
        change.accept(copy);
        JsonArray operations = Patches.diff(live, copy);
        if (status) {
            for (JsonValue operation : operations) {
                String path = operation.asJsonObject().getString("path");
                boolean test = "test".equals(operation.asJsonObject().getString("op"));
                if (!test && !path.equals("/status") && !path.startsWith("/status/")) {
                    throw new IllegalArgumentException("A status mutation can only change status fields, not " + path);
                }
            }
        }
        if (operations.isEmpty()) {
            return live;
        }
        return patch(live, operations, status ? PatchOptions.statusSubresource() : PatchOptions.DEFAULT);
    }

    /** The live object named like {@code resource}; it must be the same object (same UID). */
    @SuppressWarnings("unchecked")
    private <R extends KubernetesObject> R readLive(R resource) {
        V1ObjectMeta meta = resource.getMetadata();
        String where = resource.getClass().getSimpleName() + " " + (meta.getNamespace() == null ? "" : meta.getNamespace() + "/")
                + meta.getName();
        R live = get((Class<R>) resource.getClass(), meta.getNamespace(), meta.getName())
                .orElseThrow(() -> new KubernetesException(404, "NotFound", where + " no longer exists", null));
        if (!meta.getUid().equals(live.getMetadata().getUid())) {
            throw new KubernetesException(409, "Conflict", where + " was replaced (uid " + meta.getUid() + " is now "
                    + live.getMetadata().getUid() + "); refusing to change the new object", null);
        }
        return live;
    }

    @Override
    public <R extends KubernetesObject> R ensureFinalizer(R resource, String finalizer) {
        checkFinalizerName(finalizer);
        R live = readLive(resource);
        List<String> finalizers = live.getMetadata().getFinalizers();
        if (finalizers != null && finalizers.contains(finalizer)) {
            return live;
        }
        if (live.getMetadata().getDeletionTimestamp() != null) {
            throw new TerminalException("Cannot add finalizer " + finalizer + " to " + live.getClass().getSimpleName() + " "
                    + dev.mooring.api.ObjectKey.of(live) + ": its deletion has begun");
        }
        return change(live, copy -> {
            List<String> updated = new ArrayList<>(finalizers == null ? List.of() : finalizers);
            updated.add(finalizer);
            copy.getMetadata().setFinalizers(updated);
        }, false);
    }

    /**
     * Add {@code finalizer} to an object from a cache with one guarded PATCH (tests on UID and
     * resourceVersion), without reading it: a stale copy fails with a conflict and the pass is
     * retried with the newer one. The runtime uses it when the cached object lacks its finalizer.
     *
     * @return the object as stored, carrying the finalizer
     */
    @Override
    public <R extends KubernetesObject> R addFinalizer(R cached, String finalizer) {
        checkFinalizerName(finalizer);
        if (cached.getMetadata().getDeletionTimestamp() != null) {
            throw new TerminalException("Cannot add finalizer " + finalizer + " to " + cached.getClass().getSimpleName() + " "
                    + dev.mooring.api.ObjectKey.of(cached) + ": its deletion has begun");
        }
        List<String> finalizers = cached.getMetadata().getFinalizers();
        if (finalizers != null && finalizers.contains(finalizer)) {
            return cached;
        }
        return change(cached, copy -> {
            List<String> updated = new ArrayList<>(finalizers == null ? List.of() : finalizers);
            updated.add(finalizer);
            copy.getMetadata().setFinalizers(updated);
        }, false);
    }

    @Override
    public <R extends KubernetesObject> R removeFinalizer(R resource, String finalizer) {
        checkFinalizerName(finalizer);
        R live = readLive(resource);
        List<String> finalizers = live.getMetadata().getFinalizers();
        if (finalizers == null || !finalizers.contains(finalizer)) {
            return live;
        }
        return change(live, copy -> copy.getMetadata().setFinalizers(
                new ArrayList<>(finalizers.stream().filter(name -> !name.equals(finalizer)).toList())), false);
    }

    @Override
    public <R extends KubernetesObject> boolean delete(R target) {
        V1ObjectMeta meta = target.getMetadata();
        if (meta == null || meta.getName() == null || meta.getUid() == null || meta.getResourceVersion() == null) {
            throw new IllegalArgumentException("A guarded delete needs a fetched object with name, uid and resourceVersion");
        }
        ResourceType<R> type = typeOf(target);
        JsonObject options = new JsonObject();
        options.addProperty("apiVersion", "v1");
        options.addProperty("kind", "DeleteOptions");
        JsonObject preconditions = new JsonObject();
        preconditions.addProperty("uid", meta.getUid());
        preconditions.addProperty("resourceVersion", meta.getResourceVersion());
        options.add("preconditions", preconditions);
        try {
            http.send("DELETE", type.itemPath(namespace(meta.getNamespace()), meta.getName()), Map.of(), options.toString(),
                    "application/json");
            return true;
        } catch (KubernetesException e) {
            if (e.isNotFound()) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public <R extends KubernetesObject> R apply(R object, String fieldManager) {
        if (fieldManager == null || fieldManager.isBlank() || fieldManager.length() > 128) {
            throw new IllegalArgumentException("A field manager needs 1 to 128 characters, got '" + fieldManager + "'");
        }
        V1ObjectMeta meta = object.getMetadata();
        if (meta == null || meta.getName() == null) {
            throw new IllegalArgumentException("An applied object needs metadata.name");
        }
        ResourceType<R> type = typeOf(object);
        String path = type.itemPath(namespace(meta.getNamespace()), meta.getName());
        JsonObject applied = http.send("PATCH", path, Map.of("fieldManager", fieldManager, "force", "true"),
                Children.desiredJson(object).toString(), "application/apply-patch+yaml");
        return Models.fromJson(applied, type);
    }

    private static void checkFinalizerName(String finalizer) {
        if (finalizer == null || finalizer.isBlank() || !finalizer.contains("/") || finalizer.startsWith("/")
                || finalizer.endsWith("/")) {
            throw new IllegalArgumentException("Use a qualified finalizer name such as example.com/cleanup, got '"
                    + finalizer + "'");
        }
    }
}
