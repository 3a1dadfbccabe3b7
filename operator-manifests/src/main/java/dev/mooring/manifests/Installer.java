package dev.mooring.manifests;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.kube.DiscoveredKinds;
import dev.mooring.engine.kube.Failures;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.KubeNames;
import dev.mooring.engine.kube.ResourceType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Installs and uninstalls the objects of a generated manifests folder ({@link ManifestFolder}) in
 * the order that keeps a cluster working, with server-side apply under one field manager. Every
 * object is checked before the first request ({@link ManifestObjects}). {@link #install}: the namespaces the objects live in, the CRDs (then waits until each
 * is {@code Established}), RBAC, the remaining objects such as the Service and the Deployment
 * (then waits until every Deployment's current revision is available), and the webhook
 * registrations last — a registration with {@code failurePolicy: Fail} before its operator serves
 * would reject every matching request. {@link #uninstall}: the webhook registrations first, then
 * the custom resources of the CRDs while the operator still runs (so that it can finish their
 * finalizers), waiting until they are gone, then the workload, RBAC and the CRDs, waiting until
 * those are gone; namespaces stay.
 *
 * <p>The whole is bounded by the timeout. A failure throws {@link StepFailed} naming the step
 * and the object; what was applied before it stays, for inspection.
 */
public final class Installer {

    /** The field manager of every apply. */
    public static final String FIELD_MANAGER = "mooring-install";

    /**
     * @param timeout bounds the whole install or uninstall
     * @param force take over fields another manager owns (server-side apply's {@code force})
     * @param keepCrds uninstall leaves the CRDs, and with them every custom resource
     */
    public record Options(Duration timeout, boolean force, boolean keepCrds) {
    }

    /** A step failed; the message names the step and what failed. */
    public static final class StepFailed extends Exception {
        private final String step;

        StepFailed(String step, String message, Throwable cause) {
            super("step '" + step + "' failed: " + message, cause);
            this.step = step;
        }

        /** The step's name: check, namespaces, crds, rbac, workload, rollout, webhooks (install), or custom-resources and the removals. */
        public String step() {
            return step;
        }
    }

    private static final Duration POLL = Duration.ofMillis(250);
    /** How often a wait says what it waits for. */
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);
    private static final Set<String> RBAC = Set.of("ServiceAccount", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding");
    private static final Set<String> WEBHOOKS = Set.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration");

    private final KubeHttp http;
    private final Options options;
    private final Consumer<String> progress;
    private final DiscoveredKinds kinds;
    private long deadline;
    private long lastProgress;

    /**
     * @param http the connection, with an identity allowed to install CRDs, RBAC and webhook registrations
     * @param progress told about each step and object, one line each
     */
    public Installer(KubeHttp http, Options options, Consumer<String> progress) {
        this.http = http;
        this.kinds = new DiscoveredKinds(http);
        this.options = options;
        this.progress = progress;
    }

    /**
     * Applies the objects step by step; see the class description. Every object is checked first
     * ({@link ManifestObjects}): one that breaks a rule fails step {@code check} before any request.
     */
    public void install(List<JsonObject> objects) throws StepFailed {
        deadline = System.nanoTime() + options.timeout().toNanos();
        check(objects);
        Set<String> namespaces = new LinkedHashSet<>();
        objects.forEach(object -> namespace(object).ifPresent(namespaces::add));
        namespaces(namespaces, objects);
        crds(objects);
        step("rbac", () -> {
            for (JsonObject object : select(objects, RBAC::contains)) {
                apply(object);
            }
        });
        List<JsonObject> workload = select(objects, Installer::workload);
        step("workload", () -> {
            for (JsonObject object : workload) {
                apply(object);
            }
        });
        step("rollout", () -> {
            for (JsonObject deployment : select(workload, kind -> kind.equals("Deployment"))) {
                awaitAvailable(deployment);
            }
        });
        step("webhooks", () -> {
            List<JsonObject> configurations = select(objects, WEBHOOKS::contains);
            for (JsonObject object : configurations) {
                apply(object);
            }
            for (JsonObject object : configurations) {
                awaitCaBundle(object);
            }
        });
    }

    /**
     * Applies the namespace and only the CRDs among the objects, and waits until each CRD is
     * {@code Established}: what a local run of the operator needs first.
     */
    public void installNamespaceAndCrds(String namespace, List<JsonObject> objects) throws StepFailed {
        deadline = System.nanoTime() + options.timeout().toNanos();
        step("check", () -> KubeNames.namespace(namespace, "namespace"));
        check(objects);
        namespaces(Set.of(namespace));
        crds(objects);
    }

    /**
     * Applies the namespace, the CRDs among the objects (each awaited until {@code Established}),
     * then every other object, a namespaced one without a namespace into {@code namespace}: what
     * a test needs before its controllers start. Nothing is awaited after the last step (no
     * rollout: a test's API server may run no controllers).
     */
    public void installInto(String namespace, List<JsonObject> objects) throws StepFailed {
        deadline = System.nanoTime() + options.timeout().toNanos();
        step("check", () -> KubeNames.namespace(namespace, "namespace"));
        check(objects);
        Set<String> namespaces = new LinkedHashSet<>(List.of(namespace));
        objects.forEach(object -> namespace(object).ifPresent(namespaces::add));
        namespaces(namespaces);
        crds(objects);
        step("objects", () -> {
            for (JsonObject object : select(objects, kind -> !kind.equals("CustomResourceDefinition"))) {
                JsonObject placed = object;
                if (namespace(object).isEmpty() && served(object).namespaced()) {
                    placed = object.deepCopy();
                    placed.getAsJsonObject("metadata").addProperty("namespace", namespace);
                }
                apply(placed);
            }
        });
    }

    private void namespaces(Set<String> namespaces) throws StepFailed {
        namespaces(namespaces, List.of());
    }

    /** Applies each namespace: the Namespace object among {@code objects} of that name (its labels), else a bare one. */
    private void namespaces(Set<String> namespaces, List<JsonObject> objects) throws StepFailed {
        Map<String, JsonObject> declared = new java.util.HashMap<>();
        for (JsonObject object : select(objects, kind -> kind.equals("Namespace"))) {
            declared.put(object.getAsJsonObject("metadata").get("name").getAsString(), object);
        }
        Set<String> all = new LinkedHashSet<>(declared.keySet());
        all.addAll(namespaces);
        step("namespaces", () -> {
            for (String namespace : all) {
                if (declared.containsKey(namespace)) {
                    apply(declared.get(namespace));
                    continue;
                }
                JsonObject object = new JsonObject();
                object.addProperty("apiVersion", "v1");
                object.addProperty("kind", "Namespace");
                JsonObject metadata = new JsonObject();
                metadata.addProperty("name", namespace);
                object.add("metadata", metadata);
                apply(object);
            }
        });
    }

    private void crds(List<JsonObject> objects) throws StepFailed {
        List<JsonObject> crds = select(objects, kind -> kind.equals("CustomResourceDefinition"));
        step("crds", () -> {
            for (JsonObject crd : crds) {
                apply(crd);
            }
            for (JsonObject crd : crds) {
                awaitCondition(crd, "Established");
            }
        });
    }

    /**
     * Deletes the objects in an order that can finish; absent objects are skipped, and every object
     * is checked first, as for install. Steps: {@code webhooks} (registrations first: without an
     * operator behind them they would reject requests), {@code custom-resources} (every object of
     * the folder's CRDs, deleted while the operator runs and awaited: an operator removed first
     * would leave its finalizers on them, and their CRD {@code Terminating} for ever), then
     * {@code workload}, {@code rbac} and {@code crds} (awaited until gone); the operator's Namespace
     * stays (other things may live in it). With {@code keepCrds}
     * the custom resources and the CRDs stay. A wait that does not end within the timeout fails
     * its step naming what is left and the finalizers that hold it.
     */
    public void uninstall(List<JsonObject> objects) throws StepFailed {
        deadline = System.nanoTime() + options.timeout().toNanos();
        check(objects);
        List<JsonObject> crds = select(objects, kind -> kind.equals("CustomResourceDefinition"));
        step("webhooks", () -> delete(select(objects, WEBHOOKS::contains)));
        if (!options.keepCrds()) {
            step("custom-resources", () -> {
                for (JsonObject crd : crds) {
                    deleteCustomResources(crd);
                }
            });
        }
        step("workload", () -> delete(select(objects, Installer::workload)));
        step("rbac", () -> delete(select(objects, RBAC::contains)));
        if (!options.keepCrds()) {
            step("crds", () -> {
                delete(crds);
                for (JsonObject crd : crds) {
                    awaitGone(crd);
                }
            });
        }
    }

    /**
     * The kinds of the workload step: all but CRDs, RBAC, webhook registrations and the Namespace
     * (made by the namespaces step, and left by an uninstall: other things may live in it).
     */
    private static boolean workload(String kind) {
        return !kind.equals("CustomResourceDefinition") && !RBAC.contains(kind) && !WEBHOOKS.contains(kind) && !kind.equals("Namespace");
    }

        /** Deletes every object of the CRD's kind, in all namespaces, and waits until none is left. */
    private void deleteCustomResources(JsonObject crd) throws InterruptedException {
        JsonObject spec = crd.getAsJsonObject("spec");
        String group = KubeNames.group(spec.get("group").getAsString(), "spec.group");
        String plural = KubeNames.resource(spec.getAsJsonObject("names").get("plural").getAsString(), "spec.names.plural");
        String kind = spec.getAsJsonObject("names").get("kind").getAsString();
        String version = null;
        for (JsonElement element : spec.getAsJsonArray("versions")) {
            JsonObject candidate = element.getAsJsonObject();
            if (version == null || candidate.has("storage") && candidate.get("storage").getAsBoolean()) {
                version = candidate.get("name").getAsString();
            }
        }
        String collection = "/apis/" + group + "/" + KubeNames.version(version, "spec.versions[].name") + "/" + plural;
        Optional<JsonObject> listed = listRetrying(collection, kind);
        if (listed.isEmpty()) {
            progress.accept("  no " + kind + " served: nothing to delete");
            return;
        }
        for (JsonElement element : listed.get().getAsJsonArray("items")) {
            JsonObject item = element.getAsJsonObject();
            JsonObject metadata = item.getAsJsonObject("metadata");
            String name = KubeNames.name(metadata.get("name").getAsString(), "metadata.name");
            String path = metadata.has("namespace")
                    ? "/apis/" + group + "/" + version + "/namespaces/" + KubeNames.namespace(metadata.get("namespace").getAsString(),
                            "metadata.namespace") + "/" + plural + "/" + KubeNames.segment(name)
                    : collection + "/" + KubeNames.segment(name);
            try {
                http.send("DELETE", path, Map.of(), null, null, remaining());
                progress.accept("  deleted " + kind + " " + (metadata.has("namespace") ? metadata.get("namespace").getAsString() + "/" : "")
                        + name);
            } catch (KubernetesException e) {
                if (!e.isNotFound()) {
                    throw e;
                }
            }
        }
        while (true) {
            JsonArray left = listRetrying(collection, kind).map(list -> list.getAsJsonArray("items")).orElse(new JsonArray());
            if (left.isEmpty()) {
                return;
            }
            pause(left.size() + " " + kind + " left, the operator has not finished them: " + describeWithFinalizers(left, kind));
        }
    }

    /**
     * The list, or empty when the kind is not served; retried while the API server answers 429 or
     * 5xx (a CRD's storage answers 429 while it initializes, just after the CRD was created).
     */
    private Optional<JsonObject> listRetrying(String collection, String kind) throws InterruptedException {
        while (true) {
            try {
                return http.getOptional(collection, Map.of());
            } catch (KubernetesException e) {
                if (!Failures.isTransient(e)) {
                    throw e;
                }
                pause("the API server cannot list " + kind + " yet: " + e.getMessage());
            }
        }
    }

    /** Waits until the CRD is gone; a CRD the API server cannot finish deleting is named with its condition. */
    private void awaitGone(JsonObject crd) throws InterruptedException {
        String path = path(crd);
        while (true) {
            Optional<JsonObject> current = http.getOptional(path, Map.of());
            if (current.isEmpty()) {
                progress.accept("  gone " + describe(crd));
                return;
            }
            pause(describe(crd) + " still terminating" + conditionMessage(current.get(), "Terminating")
                    + conditionMessage(current.get(), "InstanceDeletionFailed"));
        }
    }

    /** At most five objects of a list, with their finalizers. */
    private static String describeWithFinalizers(JsonArray items, String kind) {
        List<String> described = new ArrayList<>();
        for (int i = 0; i < Math.min(5, items.size()); i++) {
            JsonObject metadata = items.get(i).getAsJsonObject().getAsJsonObject("metadata");
            String name = (metadata.has("namespace") ? metadata.get("namespace").getAsString() + "/" : "") + metadata.get("name").getAsString();
            described.add(kind + " " + name + " (finalizers: " + (metadata.has("finalizers") ? metadata.get("finalizers") : "[]") + ")");
        }
        return String.join(", ", described) + (items.size() > 5 ? ", ..." : "");
    }

    private void check(List<JsonObject> objects) throws StepFailed {
        step("check", () -> ManifestObjects.checkAll(objects));
    }

    @FunctionalInterface
    private interface Work {
        void run() throws Exception;
    }

    private void step(String name, Work work) throws StepFailed {
        progress.accept("[" + name + "]");
        lastProgress = 0;
        try {
            work.run();
        } catch (StepFailed e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StepFailed(name, "interrupted", e);
        } catch (KubernetesException | IllegalStateException | IllegalArgumentException e) {
            String hint = e instanceof KubernetesException k && k.isConflict() && !options.force()
                    ? " (another field manager owns these fields: --force, or -Dmooring.install.force=true with Maven, takes them over)" : "";
            throw new StepFailed(name, e.getMessage() + hint, e);
        } catch (Exception e) {
            throw new StepFailed(name, e.toString(), e);
        }
    }

    private static List<JsonObject> select(List<JsonObject> objects, Predicate<String> kind) {
        return objects.stream().filter(object -> kind.test(object.get("kind").getAsString())).toList();
    }

    private void apply(JsonObject object) {
        Map<String, String> query = new HashMap<>();
        query.put("fieldManager", FIELD_MANAGER);
        if (options.force()) {
            query.put("force", "true");
        }
        http.send("PATCH", path(object), query, object.toString(), "application/apply-patch+yaml", remaining());
        progress.accept("  applied " + describe(object));
    }

    private void delete(List<JsonObject> objects) {
        List<JsonObject> reversed = new ArrayList<>(objects);
        java.util.Collections.reverse(reversed);
        for (JsonObject object : reversed) {
            try {
                http.send("DELETE", path(object), Map.of(), null, null, remaining());
                progress.accept("  deleted " + describe(object));
            } catch (KubernetesException e) {
                if (!e.isNotFound()) {
                    throw e;
                }
                progress.accept("  absent " + describe(object));
            }
        }
    }

    private void awaitCondition(JsonObject object, String type) throws InterruptedException {
        String path = path(object);
        while (true) {
            JsonObject current = http.get(path, Map.of());
            if (conditionTrue(current, type)) {
                progress.accept("  " + type.toLowerCase() + " " + describe(object));
                return;
            }
            pause(describe(object) + " not " + type + " within the timeout" + conditionMessage(current, type));
        }
    }

    /**
     * Until every webhook of the configuration that calls a Service carries a CA bundle: written by
     * the operator (self-managed certificates) or cert-manager's CA injector, or given in the file.
     * Before, the API server cannot call the webhooks.
     */
    private void awaitCaBundle(JsonObject configuration) throws InterruptedException {
        String path = path(configuration);
        while (true) {
            JsonObject current = http.get(path, Map.of());
            List<String> without = new ArrayList<>();
            if (current.has("webhooks") && current.get("webhooks").isJsonArray()) {
                for (JsonElement webhook : current.getAsJsonArray("webhooks")) {
                    JsonObject client = webhook.getAsJsonObject().getAsJsonObject("clientConfig");
                    if (client != null && client.has("service") && (!client.has("caBundle") || client.get("caBundle").getAsString().isEmpty())) {
                        without.add(webhook.getAsJsonObject().get("name").getAsString());
                    }
                }
            }
            if (without.isEmpty()) {
                progress.accept("  CA bundle in " + describe(configuration));
                return;
            }
            pause(describe(configuration) + " has no CA bundle for " + without + " within the timeout (the operator writes it with"
                    + " self-managed certificates, cert-manager's CA injector with cert-manager: is it running?)");
        }
    }

    /** As {@code kubectl rollout status}: the current generation observed, all replicas updated and available. */
    private void awaitAvailable(JsonObject deployment) throws InterruptedException {
        String path = path(deployment);
        while (true) {
            JsonObject current = http.get(path, Map.of());
            long generation = current.getAsJsonObject("metadata").get("generation").getAsLong();
            JsonObject status = current.has("status") ? current.getAsJsonObject("status") : new JsonObject();
            JsonObject spec = current.getAsJsonObject("spec");
            long wanted = spec.has("replicas") ? spec.get("replicas").getAsLong() : 1;
            long observed = number(status, "observedGeneration");
            long updated = number(status, "updatedReplicas");
            long available = number(status, "availableReplicas");
            long total = number(status, "replicas");
            if (observed >= generation && updated >= wanted && available >= wanted && total <= updated) {
                progress.accept("  available " + describe(deployment));
                return;
            }
            pause(describe(deployment) + " not available within the timeout: " + available + " of " + wanted
                    + " replicas available, " + updated + " updated, generation " + observed + " of " + generation + " observed",
                    () -> new PodDiagnosis(http, PodDiagnosis.TIMEOUT).of(current));
        }
    }

    /**
     * Waits one poll, saying what it waits for every {@link #PROGRESS_EVERY} of waiting; at the
     * deadline fails with {@code status}.
     */
    private void pause(String status) throws InterruptedException {
        pause(status, () -> "");
    }

    /** Like {@link #pause(String)}; a failure at the deadline adds what {@code diagnosis} finds. */
    private void pause(String status, java.util.function.Supplier<String> diagnosis) throws InterruptedException {
        if (System.nanoTime() + POLL.toNanos() > deadline) {
            String found;
            try {
                found = diagnosis.get();
            } catch (RuntimeException e) {
                found = " (its pods could not be read: " + e.getMessage() + ")";
            }
            throw new IllegalStateException(status + " (timeout " + options.timeout().toSeconds() + " s)" + found);
        }
        long now = System.nanoTime();
        if (lastProgress == 0 || now - lastProgress >= PROGRESS_EVERY.toNanos()) {
            if (lastProgress != 0) {
                progress.accept("  waiting: " + status);
            }
            lastProgress = now;
        }
        Thread.sleep(POLL.toMillis());
    }

    private Duration remaining() {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new IllegalStateException("the timeout (" + options.timeout().toSeconds() + " s) passed");
        }
        return Duration.ofNanos(left);
    }

    private static long number(JsonObject object, String field) {
        return object.has(field) && !object.get(field).isJsonNull() ? object.get(field).getAsLong() : 0;
    }

    private static boolean conditionTrue(JsonObject object, String type) {
        return condition(object, type).map(condition -> "True".equals(condition.get("status").getAsString())).orElse(false);
    }

    private static String conditionMessage(JsonObject object, String type) {
        return condition(object, type).filter(condition -> condition.has("message"))
                .map(condition -> ": " + condition.get("message").getAsString()).orElse("");
    }

    private static Optional<JsonObject> condition(JsonObject object, String type) {
        JsonElement status = object.get("status");
        if (status == null || !status.isJsonObject() || !status.getAsJsonObject().has("conditions")
                || !status.getAsJsonObject().get("conditions").isJsonArray()) {
            return Optional.empty(); // a new object's status may be empty or its conditions null
        }
        for (JsonElement element : object.getAsJsonObject("status").getAsJsonArray("conditions")) {
            if (type.equals(element.getAsJsonObject().get("type").getAsString())) {
                return Optional.of(element.getAsJsonObject());
            }
        }
        return Optional.empty();
    }

    private static Optional<String> namespace(JsonObject object) {
        JsonObject metadata = object.getAsJsonObject("metadata");
        return metadata.has("namespace") ? Optional.of(metadata.get("namespace").getAsString()) : Optional.empty();
    }

    private static String describe(JsonObject object) {
        return object.get("kind").getAsString() + " " + namespace(object).map(namespace -> namespace + "/").orElse("")
                + object.getAsJsonObject("metadata").get("name").getAsString();
    }

    private ResourceType<?> served(JsonObject object) {
        String apiVersion = object.get("apiVersion").getAsString();
        String kind = object.get("kind").getAsString();
        return kinds.served(apiVersion, kind)
                .orElseThrow(() -> new IllegalStateException("the API server does not serve " + kind + " in " + apiVersion));
    }

    /** The object's path, from the API server's discovery of its apiVersion. */
    private String path(JsonObject object) {
        // what a manifest says goes into the request path only by Kubernetes' name rules, as in every path the runtime builds
        ResourceType<?> type = served(object);
        String namespace = !type.namespaced() ? null : KubeNames.namespace(namespace(object).orElseThrow(
                () -> new IllegalArgumentException(describe(object) + " has no namespace")), "metadata.namespace");
        return type.itemPath(namespace, KubeNames.name(object.getAsJsonObject("metadata").get("name").getAsString(), "metadata.name"));
    }
}
