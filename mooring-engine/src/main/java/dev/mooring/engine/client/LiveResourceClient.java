package dev.mooring.engine.client;

import com.google.gson.JsonObject;
import dev.mooring.api.TerminalException;
import dev.mooring.api.client.DeleteOptions;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.api.client.ListOptions;
import dev.mooring.api.client.PatchOptions;
import dev.mooring.api.client.ResourceClient;
import dev.mooring.api.client.ResourceList;
import dev.mooring.api.client.ResourceWatch;
import dev.mooring.api.client.WaitCondition;
import dev.mooring.api.client.WatchOptions;
import dev.mooring.api.client.WriteOptions;
import dev.mooring.api.patch.Patches;
import dev.mooring.engine.kube.DiscoveredKinds;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.json.JsonArray;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** The {@link ResourceClient} that talks to the API server directly; its lists, watches and waits in {@link LivePages}, {@link LiveWatch} and {@link ObjectWait}. */
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
    public <R extends KubernetesObject> ResourceList<R> list(Class<R> type, String namespace, ListOptions options) {
        ResourceType<R> resourceType = types.resolve(type);
        Map<String, String> query = ClientRequests.selection(options);
        query.put("limit", Integer.toString(options.pageSize()));
        return new LivePages<>(http, resourceType, resourceType.collectionPath(options.allNamespaces() ? null : namespace(namespace)),
                query, null);
    }

    @Override
    public <R extends KubernetesObject> ResourceWatch<R> watch(Class<R> type, String namespace, WatchOptions options) {
        ResourceType<R> resourceType = types.resolve(type);
        return new LiveWatch<>(http, resourceType,
                resourceType.collectionPath(options.list().allNamespaces() ? null : namespace(namespace)), ClientRequests.selection(options.list()),
                options.resourceVersion(), options.failWhenExpired(), Long.MAX_VALUE);
    }

    @Override
    public <R extends KubernetesObject> R create(R object, WriteOptions options) {
        if (object.getMetadata() == null || object.getMetadata().getName() == null && object.getMetadata().getGenerateName() == null) {
            throw new IllegalArgumentException("A created object needs metadata.name or metadata.generateName");
        }
        ResourceType<R> type = typeOf(object);
        JsonObject created = http.send("POST", type.collectionPath(namespace(object.getMetadata().getNamespace())), ClientRequests.dryRun(options),
                ClientRequests.withKind(object, type), "application/json");
        return Models.fromJson(created, type);
    }

    @Override
    public <R extends KubernetesObject> R update(R object, WriteOptions options) {
        ResourceType<R> type = typeOf(object);
        JsonObject updated = http.send("PUT", itemPath(type, object, "update"), ClientRequests.dryRun(options), ClientRequests.withKind(object, type), "application/json");
        return Models.fromJson(updated, type);
    }

    @Override
    public <R extends KubernetesObject> R updateStatus(R object, WriteOptions options) {
        ResourceType<R> type = typeOf(object);
        String path = itemPath(type, object, "status update");
        requireSubresource(type, "status");
        JsonObject updated = http.send("PUT", path + "/status", ClientRequests.dryRun(options), ClientRequests.withKind(object, type), "application/json");
        return Models.fromJson(updated, type);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R extends KubernetesObject> R save(R object, WriteOptions options) {
        V1ObjectMeta meta = object.getMetadata();
        if (meta == null || meta.getName() == null) {
            return create(object, options);
        }
        if (meta.getResourceVersion() != null) {
            return update(object, options);
        }
        Optional<R> stored = get((Class<R>) object.getClass(), meta.getNamespace(), meta.getName());
        if (stored.isEmpty()) {
            return create(object, options);
        }
        R copy = Models.copy(object);
        copy.getMetadata().setResourceVersion(stored.get().getMetadata().getResourceVersion());
        return update(copy, options);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R extends KubernetesObject> R scale(R object, int replicas) {
        if (replicas < 0) {
            throw new IllegalArgumentException("replicas must be 0 or more, got " + replicas);
        }
        ResourceType<R> type = typeOf(object);
        String path = itemPath(type, object, "scale");
        requireSubresource(type, "scale");
        http.send("PATCH", path + "/scale", Map.of(), "{\"spec\":{\"replicas\":" + replicas + "}}", "application/merge-patch+json");
        V1ObjectMeta meta = object.getMetadata();
        return get((Class<R>) object.getClass(), meta.getNamespace(), meta.getName())
                .orElseThrow(() -> new KubernetesException(404, "NotFound", type.kind() + " " + meta.getName() + " is gone", null));
    }

    @Override
    public <R extends KubernetesObject> String waitFor(R object, Map<String, WaitCondition<? super R>> conditions, Duration timeout) {
        ResourceType<R> type = typeOf(object);
        return ObjectWait.await(http, type, namespace(object.getMetadata() == null ? null : object.getMetadata().getNamespace()), object,
                conditions, timeout);
    }

    /** The path of the object {@code object} names, refused before any request when it has no name. */
    private <R extends KubernetesObject> String itemPath(ResourceType<R> type, R object, String operation) {
        if (object.getMetadata() == null || object.getMetadata().getName() == null) {
            throw new IllegalArgumentException("A " + operation + " needs an object with metadata.name");
        }
        return type.itemPath(namespace(object.getMetadata().getNamespace()), object.getMetadata().getName());
    }

    private void requireSubresource(ResourceType<?> type, String subresource) {
        if (!types.subresources(type).contains(subresource)) {
            throw new IllegalArgumentException(type.kind() + " (" + type.apiVersion() + ") has no " + subresource
                    + " subresource on this API server");
        }
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
        return delete(target, DeleteOptions.guardedBy(target));
    }

    @Override
    public <R extends KubernetesObject> boolean delete(Class<R> type, String namespace, String name, DeleteOptions options) {
        ResourceType<R> resourceType = types.resolve(type);
        String path = resourceType.itemPath(namespace(namespace), name);
        String body = ClientRequests.deleteBody(options);
        try {
            http.send("DELETE", path, ClientRequests.deleteQuery(options), body, body == null ? null : "application/json");
            return true;
        } catch (KubernetesException e) {
            if (e.isNotFound()) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public <R extends KubernetesObject> R apply(R object, String fieldManager, WriteOptions options) {
        if (fieldManager == null || fieldManager.isBlank() || fieldManager.length() > 128) {
            throw new IllegalArgumentException("A field manager needs 1 to 128 characters, got '" + fieldManager + "'");
        }
        V1ObjectMeta meta = object.getMetadata();
        if (meta == null || meta.getName() == null) {
            throw new IllegalArgumentException("An applied object needs metadata.name");
        }
        ResourceType<R> type = typeOf(object);
        String path = type.itemPath(namespace(meta.getNamespace()), meta.getName());
        Map<String, String> query = new HashMap<>(ClientRequests.dryRun(options));
        query.put("fieldManager", fieldManager);
        query.put("force", "true");
        JsonObject applied = http.send("PATCH", path, query,
                ClientRequests.applyBody(object, type), "application/apply-patch+yaml");
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
