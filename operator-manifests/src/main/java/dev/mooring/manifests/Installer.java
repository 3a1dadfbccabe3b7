package dev.mooring.manifests;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.runtime.internal.KubeHttp;
import dev.mooring.runtime.internal.KubeNames;
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
 * would reject every matching request. {@link #uninstall}: the same in reverse, webhook
 * registrations first; namespaces stay.
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

        /** The step's name: check, namespaces, crds, rbac, workload, rollout, webhooks (install) or their removal. */
        public String step() {
            return step;
        }
    }

    private static final Duration POLL = Duration.ofMillis(250);
    private static final Set<String> RBAC = Set.of("ServiceAccount", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding");
    private static final Set<String> WEBHOOKS = Set.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration");

    private final KubeHttp http;
    private final Options options;
    private final Consumer<String> progress;
    private final Map<String, JsonObject> discovery = new HashMap<>();
    private long deadline;

    /**
     * @param http the connection, with an identity allowed to install CRDs, RBAC and webhook registrations
     * @param progress told about each step and object, one line each
     */
    public Installer(KubeHttp http, Options options, Consumer<String> progress) {
        this.http = http;
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
        namespaces(namespaces);
        crds(objects);
        step("rbac", () -> {
            for (JsonObject object : select(objects, RBAC::contains)) {
                apply(object);
            }
        });
        List<JsonObject> workload = select(objects, kind -> !kind.equals("CustomResourceDefinition") && !RBAC.contains(kind)
                && !WEBHOOKS.contains(kind));
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
            for (JsonObject object : select(objects, WEBHOOKS::contains)) {
                apply(object);
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

    private void namespaces(Set<String> namespaces) throws StepFailed {
        step("namespaces", () -> {
            for (String namespace : namespaces) {
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

    /** Deletes the objects in the reverse order of {@link #install}; absent objects are skipped. Checked first, as for install. */
    public void uninstall(List<JsonObject> objects) throws StepFailed {
        deadline = System.nanoTime() + options.timeout().toNanos();
        check(objects);
        step("webhooks", () -> delete(select(objects, WEBHOOKS::contains)));
        step("workload", () -> delete(select(objects, kind -> !kind.equals("CustomResourceDefinition") && !RBAC.contains(kind)
                && !WEBHOOKS.contains(kind))));
        step("rbac", () -> delete(select(objects, RBAC::contains)));
        if (!options.keepCrds()) {
            step("crds", () -> delete(select(objects, kind -> kind.equals("CustomResourceDefinition"))));
        }
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
        try {
            work.run();
        } catch (StepFailed e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StepFailed(name, "interrupted", e);
        } catch (KubernetesException | IllegalStateException | IllegalArgumentException e) {
            String hint = e instanceof KubernetesException k && k.isConflict() && !options.force()
                    ? " (another field manager owns these fields: --force takes them over)" : "";
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
                    + " replicas available, " + updated + " updated, generation " + observed + " of " + generation + " observed");
        }
    }

    private void pause(String timeoutMessage) throws InterruptedException {
        if (System.nanoTime() + POLL.toNanos() > deadline) {
            throw new IllegalStateException(timeoutMessage + " (" + options.timeout().toSeconds() + " s)");
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

    /** The object's path, from the API server's discovery of its apiVersion. */
    private String path(JsonObject object) {
        // what a manifest says goes into the request path only by Kubernetes' name rules, as in every path the runtime builds
        String apiVersion = object.get("apiVersion").getAsString();
        String kind = KubeNames.kind(object.get("kind").getAsString(), "kind");
        int slash = apiVersion.indexOf('/');
        String base = slash < 0 ? "/api/" + KubeNames.version(apiVersion, "apiVersion")
                : "/apis/" + KubeNames.group(apiVersion.substring(0, slash), "apiVersion") + "/"
                        + KubeNames.version(apiVersion.substring(slash + 1), "apiVersion");
        JsonObject resources = discovery.computeIfAbsent(apiVersion, version -> http.getOptional(base, Map.of())
                .orElseThrow(() -> new IllegalStateException("the API server does not serve " + apiVersion)));
        for (JsonElement element : resources.getAsJsonArray("resources")) {
            JsonObject resource = element.getAsJsonObject();
            String name = resource.get("name").getAsString();
            if (kind.equals(resource.get("kind").getAsString()) && !name.contains("/")) {
                String namespace = resource.get("namespaced").getAsBoolean()
                        ? "/namespaces/" + KubeNames.namespace(namespace(object).orElseThrow(() -> new IllegalArgumentException(
                                describe(object) + " has no namespace")), "metadata.namespace") : "";
                String objectName = KubeNames.name(object.getAsJsonObject("metadata").get("name").getAsString(), "metadata.name");
                return base + namespace + "/" + KubeNames.segment(name) + "/" + KubeNames.segment(objectName);
            }
        }
        throw new IllegalStateException("the API server does not serve " + kind + " in " + apiVersion);
    }
}
