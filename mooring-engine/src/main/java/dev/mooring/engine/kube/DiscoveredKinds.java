package dev.mooring.engine.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.api.client.KubernetesException;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * The online source of {@link Kinds}: model classes resolved to the kinds the API server serves,
 * through discovery (the core group first, then every group that serves the model's version),
 * and kinds named by a manifest's {@code apiVersion} and {@code kind}. Results are remembered
 * per instance (one per connection).
 */
public final class DiscoveredKinds implements Kinds {

    private final KubeHttp http;
    private final Map<Class<?>, ResourceType<?>> resolved = new ConcurrentHashMap<>();
    private final Map<String, Optional<JsonObject>> versions = new ConcurrentHashMap<>();

    /** The first pause of {@link #resolveRetrying}. */
    static final Duration FIRST_DISCOVERY_RETRY = Duration.ofMillis(500);

    public DiscoveredKinds(KubeHttp http) {
        this.http = http;
    }

    /**
     * The served kind of a model class.
     *
     * @throws IllegalArgumentException if the class is not named like a client-java model
     * @throws KubernetesException with code 404 when the server does not serve the kind, or
     *     another code when discovery fails
     */
    @Override
    @SuppressWarnings("unchecked")
    public <T extends KubernetesObject> ResourceType<T> resolve(Class<T> modelClass) {
        ResourceType<?> known = resolved.get(modelClass);
        if (known != null) {
            return (ResourceType<T>) known;
        }
        ResourceType<T> type = discover(modelClass);
        resolved.put(modelClass, type);
        return type;
    }

    /**
     * {@link #resolve}, retried while the API server cannot answer (no answer, 429, 5xx): after
     * 500 ms, doubling up to {@code maxBackoff}, as long as {@code keepTrying} holds and the next
     * attempt starts before the deadline. Authorization failures and an unserved kind fail at once.
     *
     * @param deadline a {@link System#nanoTime()} value; {@code null} for none
     * @param maxBackoff the longest pause between attempts; {@code null} for no cap
     * @param onRetry told of each transient failure and the pause before the next attempt
     * @return the kind, or null once {@code keepTrying} is false
     * @throws KubernetesException a failure that is not transient, or a transient one at the deadline
     */
    public <T extends KubernetesObject> ResourceType<T> resolveRetrying(Class<T> modelClass, BooleanSupplier keepTrying,
            Long deadline, Duration maxBackoff, BiConsumer<KubernetesException, Duration> onRetry)
            throws InterruptedException {
        Backoff backoffs = maxBackoff != null && maxBackoff.compareTo(FIRST_DISCOVERY_RETRY) < 0
                ? Backoff.constant(maxBackoff) : Backoff.exponential(FIRST_DISCOVERY_RETRY, maxBackoff);
        int failures = 0;
        while (keepTrying.getAsBoolean()) {
            try {
                return resolve(modelClass);
            } catch (KubernetesException e) {
                Duration backoff = backoffs.delay(failures++);
                if (!Failures.isTransient(e) || deadline != null && deadline - System.nanoTime() < backoff.toNanos()) {
                    throw e;
                }
                onRetry.accept(e, backoff);
                Thread.sleep(backoff.toMillis());
            }
        }
        return null;
    }

    /**
     * The kind a manifest names, as its {@code apiVersion} serves it, represented by
     * {@link DynamicKubernetesObject}; empty when the API server does not serve that version or
     * has no such kind in it. The API server's answer is remembered per {@code apiVersion}.
     *
     * @throws IllegalArgumentException if {@code apiVersion} or {@code kind} breaks Kubernetes'
     *     name rules (nothing else of it reaches a request path)
     */
    public Optional<ResourceType<DynamicKubernetesObject>> served(String apiVersion, String kind) {
        KubeNames.kind(kind, "kind");
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : KubeNames.group(apiVersion.substring(0, slash), "apiVersion");
        String version = KubeNames.version(slash < 0 ? apiVersion : apiVersion.substring(slash + 1), "apiVersion");
        Optional<JsonObject> resources = versions.computeIfAbsent(apiVersion, v -> http.getOptional(
                group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version, Map.of()));
        if (resources.isEmpty() || !resources.get().has("resources")) {
            return Optional.empty();
        }
        for (JsonElement element : resources.get().getAsJsonArray("resources")) {
            JsonObject resource = element.getAsJsonObject();
            String name = resource.get("name").getAsString();
            if (!name.contains("/") && kind.equals(resource.get("kind").getAsString())) {
                return Optional.of(new ResourceType<>(group, version, kind, name, resource.get("namespaced").getAsBoolean(),
                        DynamicKubernetesObject.class));
            }
        }
        return Optional.empty();
    }

    private <T extends KubernetesObject> ResourceType<T> discover(Class<T> modelClass) {
        ModelKind model = ModelKind.of(modelClass);
        for (String group : candidateGroups(model)) {
            String path = group.isEmpty() ? "/api/" + model.version() : "/apis/" + group + "/" + model.version();
            Optional<JsonObject> list = http.getOptional(path, Map.of());
            if (list.isEmpty() || !list.get().has("resources")) {
                continue;
            }
            for (JsonElement element : list.get().getAsJsonArray("resources")) {
                JsonObject resource = element.getAsJsonObject();
                String name = resource.get("name").getAsString();
                if (!name.contains("/") && model.kind().equals(resource.get("kind").getAsString())) {
                    return new ResourceType<>(group, model.version(), model.kind(), name,
                            resource.get("namespaced").getAsBoolean(), modelClass);
                }
            }
        }
        throw new KubernetesException(404, "NotFound", "The API server does not serve kind " + model.kind()
                + " in version " + model.version() + " (model " + modelClass.getName() + ")", null);
    }

    private List<String> candidateGroups(ModelKind model) {
        List<String> groups = new ArrayList<>();
        if (model.groupHint() != null) {
            groups.add(model.groupHint());
            return groups;
        }
        groups.add("");
        JsonObject groupList = http.get("/apis", Map.of());
        for (JsonElement element : groupList.getAsJsonArray("groups")) {
            JsonObject group = element.getAsJsonObject();
            for (JsonElement version : group.getAsJsonArray("versions")) {
                if (model.version().equals(version.getAsJsonObject().get("version").getAsString())) {
                    groups.add(group.get("name").getAsString());
                }
            }
        }
        return groups;
    }
}
