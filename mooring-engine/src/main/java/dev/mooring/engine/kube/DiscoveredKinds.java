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
 * and kinds named by a manifest's {@code apiVersion} and {@code kind}. Aggregated discovery first
 * (two requests for everything the server serves), the legacy group-version documents when the
 * server has none. What discovery said is remembered per instance (one per connection) and read
 * again when a kind looked for is missing from it (a CRD installed since).
 */
public final class DiscoveredKinds implements Kinds {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(DiscoveredKinds.class.getName());

    private final KubeHttp http;
    private final Map<Class<?>, ResourceType<?>> resolved = new ConcurrentHashMap<>();
    /** Legacy group-version documents by apiVersion, for a server without aggregated discovery. */
    private final Map<String, Optional<List<ServedKinds.Served>>> legacy = new ConcurrentHashMap<>();
    /** The aggregated discovery of {@code /api} and {@code /apis} by apiVersion; null before it is read. */
    private volatile Map<String, List<ServedKinds.Served>> aggregated;
    /** True once the server answered that it has no aggregated discovery. */
    private volatile boolean legacyOnly;

    /** The Accept header of aggregated discovery, with the legacy documents as the server's fallback. */
    static final String AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";

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
     * has no such kind in it.
     *
     * @throws IllegalArgumentException if {@code apiVersion} or {@code kind} breaks Kubernetes'
     *     name rules (nothing else of it reaches a request path)
     */
    public Optional<ResourceType<DynamicKubernetesObject>> served(String apiVersion, String kind) {
        KubeNames.kind(kind, "kind");
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : KubeNames.group(apiVersion.substring(0, slash), "apiVersion");
        String version = KubeNames.version(slash < 0 ? apiVersion : apiVersion.substring(slash + 1), "apiVersion");
        return find(apiVersion, kind).map(served -> new ResourceType<>(group, version, kind, served.plural(), served.namespaced(),
                DynamicKubernetesObject.class));
    }

    /**
     * The subresources the API server serves for {@code type} ({@code status}, {@code scale}).
     *
     * @throws KubernetesException when discovery fails
     */
    public java.util.Set<String> subresources(ResourceType<?> type) {
        return find(type.apiVersion(), type.kind()).map(ServedKinds.Served::subresources).orElse(java.util.Set.of());
    }

    private <T extends KubernetesObject> ResourceType<T> discover(Class<T> modelClass) {
        ModelKind model = ModelKind.of(modelClass);
        for (boolean again : new boolean[] {false, true}) {
            // every group that serves it, to warn of an ambiguity; with legacy discovery only the first (each group a request)
            List<ResourceType<T>> found = new ArrayList<>();
            for (String apiVersion : candidates(model, again)) {
                if (!found.isEmpty() && legacyOnly) {
                    break;
                }
                for (ServedKinds.Served served : servedIn(apiVersion, again && legacyOnly)) {
                    if (served.kind().equals(model.kind())) {
                        int slash = apiVersion.indexOf('/');
                        found.add(new ResourceType<>(slash < 0 ? "" : apiVersion.substring(0, slash), model.version(), model.kind(),
                                served.plural(), served.namespaced(), modelClass));
                    }
                }
            }
            if (!found.isEmpty()) {
                if (found.size() > 1) {
                    LOG.warning(() -> "Kind " + model.kind() + " in version " + model.version() + " is served by several groups: "
                            + found.stream().map(type -> type.group().isEmpty() ? "core" : type.group()).toList() + "; "
                            + modelClass.getName() + " resolves to the first, " + found.get(0).apiVersion()
                            + ". Pin its group with @dev.mooring.api.ApiGroup");
                }
                return found.get(0);
            }
        }
        String where = model.groupHint() == null ? "" : " of group " + (model.groupHint().isEmpty() ? "core" : model.groupHint());
        throw new KubernetesException(404, "NotFound", "The API server does not serve kind " + model.kind()
                + " in version " + model.version() + where + " (model " + modelClass.getName() + ")", null);
    }

    /** The served kind {@code kind} of {@code apiVersion}, discovery read again once when it is missing. */
    private Optional<ServedKinds.Served> find(String apiVersion, String kind) {
        for (boolean again : new boolean[] {false, true}) {
            for (ServedKinds.Served served : servedIn(apiVersion, again)) {
                if (served.kind().equals(kind)) {
                    return Optional.of(served);
                }
            }
        }
        return Optional.empty();
    }

    /** The apiVersions that may serve the model's kind, in the server's order, the core group first. */
    private List<String> candidates(ModelKind model, boolean again) {
        if (model.groupHint() != null) {
            return List.of(model.groupHint().isEmpty() ? model.version() : model.groupHint() + "/" + model.version());
        }
        List<String> candidates = new ArrayList<>();
        Map<String, List<ServedKinds.Served>> all = aggregated(again);
        if (all != null) {
            for (String apiVersion : all.keySet()) {
                if (apiVersion.equals(model.version()) || apiVersion.endsWith("/" + model.version())) {
                    candidates.add(apiVersion);
                }
            }
            return candidates;
        }
        candidates.add(model.version());
        JsonObject groupList = http.get("/apis", Map.of());
        for (JsonElement element : groupList.getAsJsonArray("groups")) {
            JsonObject group = element.getAsJsonObject();
            for (JsonElement version : group.getAsJsonArray("versions")) {
                if (model.version().equals(version.getAsJsonObject().get("version").getAsString())) {
                    candidates.add(group.get("name").getAsString() + "/" + model.version());
                }
            }
        }
        return candidates;
    }

    /** The kinds {@code apiVersion} serves; read from the server again when {@code again}. */
    private List<ServedKinds.Served> servedIn(String apiVersion, boolean again) {
        Map<String, List<ServedKinds.Served>> all = aggregated(again);
        if (all != null) {
            return all.getOrDefault(apiVersion, List.of());
        }
        if (again) {
            legacy.remove(apiVersion);
        }
        return legacy.computeIfAbsent(apiVersion, v -> http.getOptional(v.indexOf('/') < 0 ? "/api/" + v : "/apis/" + v, Map.of())
                .map(ServedKinds::legacy)).orElse(List.of());
    }

    /** Aggregated discovery, read on first use and again when {@code again}; null when the server has none. */
    private Map<String, List<ServedKinds.Served>> aggregated(boolean again) {
        if (legacyOnly) {
            return null;
        }
        Map<String, List<ServedKinds.Served>> known = aggregated;
        if (known != null && !again) {
            return known;
        }
        Map<String, List<ServedKinds.Served>> read = new java.util.LinkedHashMap<>();
        for (String path : List.of("/api", "/apis")) {
            Map<String, List<ServedKinds.Served>> part;
            try {
                part = ServedKinds.aggregated(http.get(path, Map.of(), AGGREGATED));
            } catch (KubernetesException e) {
                if (e.code() != 404 && e.code() != 406) {
                    throw e;
                }
                part = null;
            }
            if (part == null) {
                legacyOnly = true;
                return null;
            }
            read.putAll(part);
        }
        aggregated = read;
        return read;
    }
}
