package dev.mooring.engine;

import dev.mooring.api.client.PatchOptions;
import dev.mooring.engine.kube.EngineClient;
import dev.mooring.engine.kube.Models;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.json.JsonArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A live client that answers from objects the test stores and writes down every request it
 * would send, in order ({@code "GET ns/name"}, {@code "PATCH status ns/name [ops]"}, ...). What
 * the API server decides about such requests is the integration tests'.
 */
final class RecordingClient implements EngineClient {

    final List<String> requests = new CopyOnWriteArrayList<>();
    /** Objects as stored: what {@link #get} answers. */
    final List<KubernetesObject> stored = new CopyOnWriteArrayList<>();
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
        return target;
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

    private static <R extends KubernetesObject> R withFinalizers(R resource, Consumer<List<String>> change) {
        R copy = Models.copy(resource);
        List<String> finalizers = copy.getMetadata().getFinalizers() == null ? new ArrayList<>()
                : new ArrayList<>(copy.getMetadata().getFinalizers());
        change.accept(finalizers);
        copy.getMetadata().setFinalizers(finalizers);
        return copy;
    }

    @Override
    public <R extends KubernetesObject> R create(R object) {
        return unexpected("create", object);
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

    @Override
    public <R extends KubernetesObject> R apply(R object, String fieldManager) {
        return unexpected("apply", object);
    }

    private <R> R unexpected(String request, KubernetesObject object) {
        record(request.toUpperCase() + " " + key(object));
        throw new UnsupportedOperationException(request + " is not part of these tests");
    }

    /** A client function for the runner: the same recording client for every namespace. */
    Function<String, EngineClient> forEveryNamespace() {
        return namespace -> this;
    }
}
