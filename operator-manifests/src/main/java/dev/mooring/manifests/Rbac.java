package dev.mooring.manifests;

import dev.mooring.api.RbacRule;
import dev.mooring.api.Watch;
import dev.mooring.api.admission.AdmissionCache;
import dev.mooring.engine.kube.Kinds;
import dev.mooring.engine.kube.ResourceType;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerOptions;
import io.kubernetes.client.common.KubernetesObject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The RBAC an operator needs for what Mooring does on its behalf, inferred from its classes
 * offline, plus its {@link RbacRule}s:
 *
 * <table>
 * <caption>Inferred permissions</caption>
 * <tr><td>a controller's kind</td><td>get, list, watch, patch (writes are JSON patches and server-side apply)</td></tr>
 * <tr><td>its status, when the model has a {@code status}</td><td>patch on {@code <plural>/status}</td></tr>
 * <tr><td>its finalizers, when it owns kinds or declares a finalizer</td><td>update on {@code <plural>/finalizers}
 * (children's owner references block the owner's deletion)</td></tr>
 * <tr><td>owned kinds</td><td>get, list, watch, create, patch, delete (pruning)</td></tr>
 * <tr><td>{@code @Watch} kinds</td><td>get, list, watch</td></tr>
 * <tr><td>{@code @AdmissionCache} kinds</td><td>list, watch, cluster-wide (the caches span all namespaces)</td></tr>
 * <tr><td>Events</td><td>create, patch on {@code events.k8s.io} events where the controller works</td></tr>
 * <tr><td>leader election</td><td>create leases; get and update the named Lease</td></tr>
 * <tr><td>self-managed webhook certificates</td><td>create secrets; get, list, watch, update the named Secret
 * and webhook configurations; get the operator's ServiceAccount</td></tr>
 * </table>
 *
 * Scope follows the controllers: rules of a controller in one namespace go to a Role in that
 * namespace; of a controller of all namespaces, or of a cluster-scoped kind, to the ClusterRole.
 * Plurals come from {@code @CustomResource} or Kubernetes' built-in kinds, never guessed. The
 * ServiceAccount gets nothing to install CRDs, edit RBAC or register webhooks (self-managed
 * certificates update the CA bundle of the operator's own two configurations only).
 */
public final class Rbac {

    /**
     * @param name the ServiceAccount's and the roles' name
     * @param namespace the operator's namespace (the ServiceAccount's, and the default of controllers)
     * @param leaseName the leader election Lease (in the operator namespace), or null without election
     * @param shards the number of shards ({@code mooring.sharding.shards}), 0 without sharding: the
     *     shard and member Leases' names are not known in advance, so every Lease of the operator's
     *     namespace may be read, listed, created, updated and deleted
     * @param selfManagedCertificates whether the operator keeps its webhook certificate: its Secret, its
     *     ServiceAccount (the Secret's owner) and its webhook configurations, each by name
     * @param secureMetrics whether the operator checks its metrics' callers: it may create
     *     TokenReviews and SubjectAccessReviews, and a {@code <name>-metrics-reader} ClusterRole
     *     (bound to no one) lets a scraper read {@code /mooring/metrics}
     */
    public record Settings(String name, String namespace, String leaseName, boolean selfManagedCertificates, boolean secureMetrics,
            int shards) {

        /**
         * Settings of an operator in {@code namespace}: by default without election, self-managed
         * certificates, secure metrics or sharding.
         */
        public static Builder builder(String name, String namespace) {
            return new Builder(name, namespace);
        }

        /** Collects {@link Settings}; every part but the name and namespace is optional. */
        public static final class Builder {

            private final String name;
            private final String namespace;
            private String leaseName;
            private boolean selfManagedCertificates;
            private boolean secureMetrics;
            private int shards;

            private Builder(String name, String namespace) {
                this.name = name;
                this.namespace = namespace;
            }

            /** The leader election Lease, or null without election. */
            public Builder leaseName(String leaseName) {
                this.leaseName = leaseName;
                return this;
            }

            public Builder selfManagedCertificates(boolean selfManagedCertificates) {
                this.selfManagedCertificates = selfManagedCertificates;
                return this;
            }

            public Builder secureMetrics(boolean secureMetrics) {
                this.secureMetrics = secureMetrics;
                return this;
            }

            /** The number of shards, 0 without sharding. */
            public Builder shards(int shards) {
                this.shards = shards;
                return this;
            }

            public Settings build() {
                return new Settings(name, namespace, leaseName, selfManagedCertificates, secureMetrics, shards);
            }
        }
    }

    /** The non-resource URL a scraper of secure metrics is authorized for. */
    public static final String METRICS_PATH = "/mooring/metrics";

    /** The name of the ClusterRole that may read secure metrics, for a binding to the scraper's ServiceAccount. */
    public static String metricsReader(String name) {
        return name + "-metrics-reader";
    }

    /** One resource of one group in one scope (namespace, or null for cluster-wide), with its verbs and names. */
    private record Key(String scope, String group, String resource, Set<String> names) {
    }

    private final Settings settings;
    private final Map<Key, Set<String>> rules = new TreeMap<>((a, b) -> (String.valueOf(a.scope()) + "|" + a.group() + "|"
            + a.resource() + "|" + a.names()).compareTo(String.valueOf(b.scope()) + "|" + b.group() + "|" + b.resource() + "|"
            + b.names()));

    private Rbac(Settings settings) {
        this.settings = settings;
    }

    /**
     * The ClusterRole and Roles with their bindings to the ServiceAccount, for these classes
     * (controllers, admission beans, custom resources; others are skipped).
     *
     * @throws IllegalArgumentException naming the class, for a kind Mooring cannot name offline
     */
    public static List<JsonObject> of(List<Class<?>> classes, Settings settings) {
        Rbac rbac = new Rbac(settings);
        for (Class<?> type : classes) {
            ControllerOptions.offline(type, settings.namespace()).ifPresent(definition -> rbac.controller(type, definition));
            AdmissionCache cache = type.getAnnotation(AdmissionCache.class);
            if (cache != null) {
                for (Class<? extends KubernetesObject> kind : cache.value()) {
                    rbac.grant(null, Kinds.offline().resolve(kind), "", "list", "watch");
                }
            }
            for (RbacRule rule : type.getAnnotationsByType(RbacRule.class)) {
                if (rule.resourceNames().length > 0) {
                    List<String> unnamed = java.util.Arrays.stream(rule.verbs())
                            .filter(verb -> verb.equals("create") || verb.equals("deletecollection")).toList();
                    if (!unnamed.isEmpty()) {
                        throw new IllegalArgumentException("@RbacRule on " + type.getName() + " names resources "
                                + List.of(rule.resourceNames()) + " for " + unnamed + ": Kubernetes ignores resource names for those verbs"
                                + " (a create has no name yet, a deletecollection addresses the whole collection), so the rule would"
                                + " grant them on every object; give them in a rule without resourceNames");
                    }
                }
                String scope = rule.cluster() ? null : rule.namespace().isEmpty() ? settings.namespace() : rule.namespace();
                for (String group : rule.groups()) {
                    for (String resource : rule.resources()) {
                        rbac.add(new Key(scope, group, resource, new TreeSet<>(List.of(rule.resourceNames()))), rule.verbs());
                    }
                }
            }
        }
        if (settings.shards() > 0) {
            rbac.add(new Key(settings.namespace(), "coordination.k8s.io", "leases", Set.of()), "create", "delete", "get", "list",
                    "update");
        } else if (settings.leaseName() != null) {
            rbac.add(new Key(settings.namespace(), "coordination.k8s.io", "leases", Set.of()), "create");
            rbac.add(new Key(settings.namespace(), "coordination.k8s.io", "leases", Set.of(settings.leaseName())), "get", "update");
        }
        if (settings.selfManagedCertificates()) {
            String namespace = settings.namespace();
            // create cannot be limited to a name (the name is not known to RBAC before the object exists)
            rbac.add(new Key(namespace, "", "secrets", Set.of()), "create");
            rbac.add(new Key(namespace, "", "secrets", Set.of(Certificates.secretName(settings.name()))), "get", "list", "watch",
                    "update");
            rbac.add(new Key(namespace, "", "serviceaccounts", Set.of(settings.name())), "get");
            List<dev.mooring.engine.admission.AdmissionRoute> routes = dev.mooring.engine.admission.AdmissionRoutes.of(
                    classes.stream().filter(dev.mooring.engine.admission.AdmissionRoutes::declares).toList());
            // the configurations that exist: one per kind of webhook
            List<String> configurations = new ArrayList<>();
            if (routes.stream().anyMatch(route -> !route.mutating())) {
                configurations.add("validatingwebhookconfigurations");
            }
            if (routes.stream().anyMatch(dev.mooring.engine.admission.AdmissionRoute::mutating)) {
                configurations.add("mutatingwebhookconfigurations");
            }
            for (String resource : configurations) {
                rbac.add(new Key(null, "admissionregistration.k8s.io", resource,
                        Set.of(settings.name() + "." + namespace + ".svc")), "get", "list", "watch", "update");
            }
        }
        if (settings.secureMetrics()) {
            rbac.add(new Key(null, "authentication.k8s.io", "tokenreviews", Set.of()), "create");
            rbac.add(new Key(null, "authorization.k8s.io", "subjectaccessreviews", Set.of()), "create");
        }
        List<JsonObject> manifests = rbac.manifests();
        if (settings.secureMetrics()) {
            manifests.add(Json.createObjectBuilder().add("apiVersion", "rbac.authorization.k8s.io/v1").add("kind", "ClusterRole")
                    .add("metadata", Json.createObjectBuilder().add("name", metricsReader(settings.name())))
                    .add("rules", Json.createArrayBuilder().add(Json.createObjectBuilder()
                            .add("nonResourceURLs", Json.createArrayBuilder().add(METRICS_PATH))
                            .add("verbs", Json.createArrayBuilder().add("get"))))
                    .build());
        }
        return manifests;
    }

    /** The grants of one controller: in each namespace it watches at start (a set: a Role in each), or cluster-wide. */
    private void controller(Class<?> type, ControllerDefinition definition) {
        for (String namespace : definition.scopes()) {
            controller(type, definition, namespace);
        }
    }

    private void controller(Class<?> type, ControllerDefinition definition, String namespace) {
        ResourceType<?> primary = Kinds.offline().resolve(definition.kind());
        String scope = primary.namespaced() ? namespace : null; // null namespace: all namespaces
        grant(scope, primary, "", "get", "list", "watch", "patch");
        if (CrdSchema.fields(definition.kind()).stream().anyMatch(field -> CrdSchema.serializedName(field).equals("status"))) {
            grant(scope, primary, "/status", "patch");
        }
        if (!definition.owns().isEmpty() || definition.finalizer() != null) {
            grant(scope, primary, "/finalizers", "update");
        }
        // children live in the owner's namespace; a cluster-scoped owner's children may be anywhere (scope null)
        for (Class<? extends KubernetesObject> owned : definition.owns()) {
            grant(scope, Kinds.offline().resolve(owned), "", "get", "list", "watch", "create", "patch", "delete");
        }
        for (Method method : type.getDeclaredMethods()) {
            if (method.isAnnotationPresent(Watch.class)) {
                grant(namespace, Kinds.offline().resolve(ControllerOptions.watchedKind(method)), "", "get", "list", "watch");
            }
        }
        // Events about namespaced objects go to their namespace; about cluster-scoped ones, to the operator's
        String events = primary.namespaced() ? namespace : settings.namespace();
        add(new Key(events, "events.k8s.io", "events", Set.of()), "create", "patch");
    }

    /** Grant on a kind in {@code scope} (a namespace, or null for all); a cluster-scoped kind always cluster-wide. */
    private void grant(String scope, ResourceType<?> kind, String subresource, String... verbs) {
        if (kind.plural() == null) {
            throw new IllegalArgumentException(kind.kind() + " is not served on its own; it cannot be granted");
        }
        add(new Key(kind.namespaced() ? scope : null, kind.group(), kind.plural() + subresource, Set.of()), verbs);
    }

    private void add(Key key, String... verbs) {
        rules.computeIfAbsent(new Key(key.scope(), key.group(), key.resource(), new TreeSet<>(key.names())), k -> new TreeSet<>())
                .addAll(List.of(verbs));
    }

    private List<JsonObject> manifests() {
        Map<String, JsonArrayBuilder> byScope = new TreeMap<>(); // "" is cluster-wide
        for (Map.Entry<Key, Set<String>> rule : rules.entrySet()) {
            String scope = rule.getKey().scope() == null ? "" : rule.getKey().scope();
            byScope.computeIfAbsent(scope, s -> Json.createArrayBuilder()).add(policyRule(rule.getKey(), rule.getValue()));
        }
        List<JsonObject> manifests = new ArrayList<>();
        manifests.add(Json.createObjectBuilder().add("apiVersion", "v1").add("kind", "ServiceAccount")
                .add("metadata", Json.createObjectBuilder().add("name", settings.name()).add("namespace", settings.namespace()))
                .build());
        for (Map.Entry<String, JsonArrayBuilder> scope : byScope.entrySet()) {
            boolean cluster = scope.getKey().isEmpty();
            String role = cluster ? "ClusterRole" : "Role";
            var metadata = Json.createObjectBuilder().add("name", settings.name());
            if (!cluster) {
                metadata.add("namespace", scope.getKey());
            }
            JsonObject roleMetadata = metadata.build();
            manifests.add(Json.createObjectBuilder().add("apiVersion", "rbac.authorization.k8s.io/v1").add("kind", role)
                    .add("metadata", roleMetadata).add("rules", scope.getValue()).build());
            manifests.add(Json.createObjectBuilder().add("apiVersion", "rbac.authorization.k8s.io/v1").add("kind", role + "Binding")
                    .add("metadata", roleMetadata)
                    .add("roleRef", Json.createObjectBuilder().add("apiGroup", "rbac.authorization.k8s.io").add("kind", role)
                            .add("name", settings.name()))
                    .add("subjects", Json.createArrayBuilder().add(Json.createObjectBuilder().add("kind", "ServiceAccount")
                            .add("name", settings.name()).add("namespace", settings.namespace())))
                    .build());
        }
        return manifests;
    }

    /** One policy rule as JSON. */
    private static JsonObject policyRule(Key key, Set<String> verbs) {
        var rule = Json.createObjectBuilder().add("apiGroups", Json.createArrayBuilder().add(key.group()))
                .add("resources", Json.createArrayBuilder().add(key.resource()));
        if (!key.names().isEmpty()) {
            JsonArrayBuilder names = Json.createArrayBuilder();
            key.names().forEach(names::add);
            rule.add("resourceNames", names);
        }
        JsonArrayBuilder granted = Json.createArrayBuilder();
        verbs.forEach(granted::add);
        return rule.add("verbs", granted).build();
    }
}
