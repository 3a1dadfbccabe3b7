package dev.mooring.engine;

import dev.mooring.api.client.DeleteOptions;
import dev.mooring.api.client.ListOptions;
import dev.mooring.api.client.PatchOptions;
import dev.mooring.api.client.ResourceList;
import dev.mooring.api.client.ResourceWatch;
import dev.mooring.api.client.WaitCondition;
import dev.mooring.api.client.WatchOptions;
import dev.mooring.api.client.WriteOptions;
import dev.mooring.engine.client.EngineClient;
import dev.mooring.engine.kube.Models;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.json.JsonArray;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A live client that answers from objects the test stores and writes down every request it
 * would send, in order ({@code "GET ns/name"}, {@code "PATCH status ns/name [ops]"}, ...); a
 * patch guarded by a resourceVersion other than a stored object's fails as a conflict. What the
 * API server decides about such requests is the integration tests'.
 */
public final class RecordingClient implements EngineClient {

    public final List<String> requests = new CopyOnWriteArrayList<>();
    /** Objects as stored: what {@link #get} answers. */
    public final List<KubernetesObject> stored = new CopyOnWriteArrayList<>();
    /** Thrown by every status write when set. */
    volatile RuntimeException statusWriteFailure;

    private static String key(KubernetesObject object) {
        return object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
    }

    private void record(String request) {
        requests.add(request);
    }

    @Override
    public <R extends KubernetesObject> Optional<R> get(Class<R> type, String namespace, String name) {
        record("GET " + namespace + "/" + name);
        return stored.stream().filter(type::isInstance).map(type::cast)
                .filter(object -> (namespace + "/" + name).equals(key(object))).findFirst().map(Models::copy);
    }

    @Override
    public <R extends KubernetesObject> R patch(R target, JsonArray operations, PatchOptions options) {
        record("PATCH " + (options.status() ? "status " : "") + key(target) + " " + operations);
        if (options.status() && statusWriteFailure != null) {
            throw statusWriteFailure;
        }
        // a guarded patch of a stored object that has moved on fails, as the API server fails it (422, a failed test)
        for (jakarta.json.JsonValue operation : operations) {
            var op = operation.asJsonObject();
            if (op.getString("op").equals("test") && op.getString("path").equals("/metadata/resourceVersion")) {
                String expected = op.getString("value");
                stored.stream().filter(object -> object.getClass() == target.getClass() && key(object).equals(key(target)))
                        .filter(object -> !expected.equals(object.getMetadata().getResourceVersion())).findFirst()
                        .ifPresent(object -> {
                            throw new dev.mooring.api.client.KubernetesException(422, "Invalid", "the test of resourceVersion "
                                    + expected + " failed: stored " + object.getMetadata().getResourceVersion(), null, true);
                        });
            }
        }
        return written(target);
    }

    /** {@code object} as written: a stored object of its kind and name gets a new resourceVersion, as the API server gives it. */
    private <R extends KubernetesObject> R written(R object) {
        for (int i = 0; i < stored.size(); i++) {
            KubernetesObject current = stored.get(i);
            String version = current.getMetadata().getResourceVersion();
            if (current.getClass() == object.getClass() && key(current).equals(key(object)) && version != null
                    && version.matches("\\d+")) {
                KubernetesObject next = Models.copy(current);
                next.getMetadata().setResourceVersion(Long.toString(Long.parseLong(version) + 1));
                stored.set(i, next);
                R written = Models.copy(object);
                written.getMetadata().setResourceVersion(next.getMetadata().getResourceVersion());
                return written;
            }
        }
        return object;
    }

    @Override
    public <R extends KubernetesObject> R ensureFinalizer(R resource, String finalizer) {
        record("ADD FINALIZER " + key(resource) + " " + finalizer);
        return withFinalizers(resource, list -> {
            if (!list.contains(finalizer)) {
                list.add(finalizer);
            }
        });
    }

    @Override
    public <R extends KubernetesObject> R addFinalizer(R cached, String finalizer) {
        return ensureFinalizer(cached, finalizer);
    }

    @Override
    public <R extends KubernetesObject> R removeFinalizer(R resource, String finalizer) {
        record("REMOVE FINALIZER " + key(resource) + " " + finalizer);
        return withFinalizers(resource, list -> list.remove(finalizer));
    }

    private <R extends KubernetesObject> R withFinalizers(R resource, Consumer<List<String>> change) {
        R copy = Models.copy(resource);
        List<String> finalizers = copy.getMetadata().getFinalizers() == null ? new ArrayList<>()
                : new ArrayList<>(copy.getMetadata().getFinalizers());
        change.accept(finalizers);
        copy.getMetadata().setFinalizers(finalizers);
        return written(copy);
    }

    @Override
    public <R extends KubernetesObject> R create(R object, WriteOptions options) {
        record("CREATE " + key(object) + " " + (object.getMetadata().getOwnerReferences() == null ? List.of()
                : object.getMetadata().getOwnerReferences().stream().map(reference -> reference.getKind() + "/" + reference.getName()
                        + (Boolean.TRUE.equals(reference.getController()) ? " controller" : "")).toList()));
        return object;
    }

    @Override
    public <R extends KubernetesObject> R update(R object, WriteOptions options) {
        return unexpected("update", object);
    }

    @Override
    public <R extends KubernetesObject> R updateStatus(R object, WriteOptions options) {
        return unexpected("updateStatus", object);
    }

    @Override
    public <R extends KubernetesObject> R save(R object, WriteOptions options) {
        return unexpected("save", object);
    }

    @Override
    public <R extends KubernetesObject> R scale(R object, int replicas) {
        return unexpected("scale", object);
    }

    @Override
    public <R extends KubernetesObject> String waitFor(R object, Map<String, WaitCondition<? super R>> conditions, Duration timeout) {
        return unexpected("waitFor", object);
    }

    @Override
    public <R extends KubernetesObject> ResourceList<R> list(Class<R> type, String namespace, ListOptions options) {
        record("LIST " + namespace);
        throw new UnsupportedOperationException("list is not part of these tests");
    }

    @Override
    public <R extends KubernetesObject> ResourceWatch<R> watch(Class<R> type, String namespace, WatchOptions options) {
        record("WATCH " + namespace);
        throw new UnsupportedOperationException("watch is not part of these tests");
    }

    @Override
    public <R extends KubernetesObject> boolean delete(Class<R> type, String namespace, String name, DeleteOptions options) {
        record("DELETE " + namespace + "/" + name + " propagation " + options.propagation() + " if uid " + options.uid()
                + " and resourceVersion " + options.resourceVersion());
        return true;
    }

    @Override
    public <R extends KubernetesObject> R mutate(R resource, Consumer<R> change) {
        return unexpected("mutate", resource);
    }

    @Override
    public <R extends KubernetesObject> R mutateStatus(R resource, Consumer<R> change) {
        return unexpected("mutateStatus", resource);
    }

    @Override
    public <R extends KubernetesObject> boolean delete(R target) {
        unexpected("delete", target);
        return false;
    }

    /** The objects applied so far, in order. */
    private final List<KubernetesObject> applied = new CopyOnWriteArrayList<>();

    /** The last object of {@code type} applied. */
    public <R extends KubernetesObject> R applied(Class<R> type) {
        for (int i = applied.size() - 1; i >= 0; i--) {
            if (type.isInstance(applied.get(i))) {
                return type.cast(Models.copy(applied.get(i)));
            }
        }
        throw new AssertionError("nothing of " + type.getSimpleName() + " was applied");
    }

    @Override
    public <R extends KubernetesObject> R apply(R object, String fieldManager, WriteOptions options) {
        applied.add(Models.copy(object));
        record("APPLY by " + fieldManager + " " + key(object) + " " + object.getMetadata().getOwnerReferences().stream()
                .map(reference -> reference.getKind() + "/" + reference.getName()).toList());
        return object;
    }

    private <R> R unexpected(String request, KubernetesObject object) {
        record(request.toUpperCase() + " " + key(object));
        throw new UnsupportedOperationException(request + " is not part of these tests");
    }

    /** A client function for the runner: the same recording client for every namespace. */
    public Function<String, EngineClient> forEveryNamespace() {
        return namespace -> this;
    }
}
