package dev.mooring.manifests;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * The operator's Deployment and, with webhooks, its Service: Liberty with the operator's image,
 * the ServiceAccount of {@link Rbac}, the namespace through the downward API, the probes of the
 * health reference (started, live, ready on the HTTP port), the webhook TLS Secret mounted where Mooring
 * reads it (or, with self-managed certificates, the settings to make it), a non-root restricted security context with a read-only root file system (the folders
 * Liberty writes are {@code emptyDir}s, see {@link #WRITABLE}) and resource requests.
 */
public final class Workload {

    /** Where Mooring reads the webhook certificate (mooring.webhook.tls.cert-file / key-file defaults). */
    static final String TLS_MOUNT = "/var/run/mooring/tls";

    /**
     * The folders Liberty writes in the official image's layout, each an {@code emptyDir} of the pod
     * (volume name to path): its logs ({@code LOG_DIR}), its output ({@code WLP_OUTPUT_DIR}: work
     * area, key stores, PID), the expanded EAR ({@code autoExpand} expands dropins into the server's
     * {@code apps} folder) and the JVM's temporary files. The rest of the image stays read-only.
     */
    public static final java.util.Map<String, String> WRITABLE = writable();

    /**
     * What the workload's objects are made from: the generator's options (name, namespace, image,
     * secure metrics, shards) and what the generator derived from them.
     *
     * @param options the options given to the generator (with a name, a namespace and an image)
     * @param replicas how many pods (more than one needs leader election or shards)
     * @param leaseName the leader election Lease, or null without election; with shards, the prefix of
     *     the shard Leases' names (null: {@code mooring})
     * @param webhooks whether the operator serves admission webhooks (HTTPS port, TLS Secret, Service)
     * @param certificates where the webhook certificate comes from: self-managed (made by the operator, read
     *     through the API: no volume) or a Secret that cert-manager or someone else fills (mounted)
     */
    public record Settings(GenerateManifests.Options options, int replicas, String leaseName, boolean webhooks,
            Certificates.Mode certificates) {

        public Settings {
            if (replicas < 1) {
                throw new IllegalArgumentException(GenerateManifests.option("--replicas") + " must be at least 1, got " + replicas);
            }
            if (replicas > 1 && leaseName == null && options.shards() == 0) {
                throw new IllegalArgumentException(GenerateManifests.option("--replicas") + " " + replicas
                        + " needs leader election or shards: give " + GenerateManifests.option("--lease-name") + " or "
                        + GenerateManifests.option("--shards"));
            }
            java.util.Objects.requireNonNull(certificates, "certificates");
        }

        /** The Deployment's, Service's and ServiceAccount's name. */
        public String name() {
            return options.name();
        }

        /** The operator's namespace. */
        public String namespace() {
            return options.namespace();
        }

        /** The operator's image. */
        public String image() {
            return options.image();
        }

        /**
         * Whether metrics are served only on the HTTPS port to callers the API server
         * authenticates and authorizes ({@code MOORING_METRICS_SECURE}).
         */
        public boolean secureMetrics() {
            return options.secureMetrics();
        }

        /** The number of shards ({@code MOORING_SHARDING_SHARDS}: every replica active on its own shards, no leader election), 0 without. */
        public int shards() {
            return options.shards();
        }
    }

    private Workload() {
    }

    private static java.util.Map<String, String> writable() {
        java.util.Map<String, String> folders = new java.util.LinkedHashMap<>();
        folders.put("logs", "/logs");
        folders.put("output", "/opt/ol/wlp/output");
        folders.put("apps", "/opt/ol/wlp/usr/servers/defaultServer/apps");
        folders.put("tmp", "/tmp");
        return java.util.Collections.unmodifiableMap(folders);
    }

    /**
     * Kubernetes' recommended labels of the operator's objects: {@code name} (also the selector,
     * which never changes), {@code instance}, {@code component}, {@code part-of} and
     * {@code managed-by}.
     */
    static JsonObject labels(Settings settings) {
        return Json.createObjectBuilder().add("app.kubernetes.io/name", settings.name())
                .add("app.kubernetes.io/instance", settings.name()).add("app.kubernetes.io/component", "operator")
                .add("app.kubernetes.io/part-of", settings.name()).add("app.kubernetes.io/managed-by", "mooring").build();
    }

    private static JsonObject selector(Settings settings) {
        return Json.createObjectBuilder().add("app.kubernetes.io/name", settings.name()).build();
    }

    /**
     * With more than one replica, a PodDisruptionBudget that keeps one pod of the operator through
     * voluntary disruptions (node drains): the leader or a standby ready to take over, and a pod
     * that answers the webhooks; else empty.
     */
    public static java.util.Optional<JsonObject> disruptionBudget(Settings settings) {
        if (settings.replicas() < 2) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(Json.createObjectBuilder().add("apiVersion", "policy/v1").add("kind", "PodDisruptionBudget")
                .add("metadata", metadata(settings).add("labels", labels(settings)))
                .add("spec", Json.createObjectBuilder().add("minAvailable", 1)
                        .add("selector", Json.createObjectBuilder().add("matchLabels", selector(settings))))
                .build());
    }

    /** The Deployment. */
    public static JsonObject deployment(Settings settings) {
        JsonArrayBuilder env = Json.createArrayBuilder().add(Json.createObjectBuilder().add("name", "MOORING_NAMESPACE")
                .add("valueFrom", Json.createObjectBuilder().add("fieldRef", Json.createObjectBuilder()
                        .add("fieldPath", "metadata.namespace"))));
        if (settings.shards() > 0) {
            env.add(variable("MOORING_SHARDING_SHARDS", Integer.toString(settings.shards())));
            if (settings.leaseName() != null) {
                env.add(variable("MOORING_LEADER_ELECTION_LEASE_NAME", settings.leaseName()));
            }
        } else if (settings.leaseName() != null) {
            env.add(variable("MOORING_LEADER_ELECTION_ENABLED", "true"));
            env.add(variable("MOORING_LEADER_ELECTION_LEASE_NAME", settings.leaseName()));
        }
        boolean selfManaged = settings.webhooks() && settings.certificates() == Certificates.Mode.SELF_MANAGED;
        if (selfManaged) {
            // the Secret (<service>-tls) and the configurations (<service>.<namespace>.svc) have the defaults' names
            env.add(variable("MOORING_WEBHOOK_CERTIFICATES", "self-managed"));
            env.add(variable("MOORING_WEBHOOK_CERTIFICATES_SERVICE", settings.name()));
            env.add(Json.createObjectBuilder().add("name", "MOORING_WEBHOOK_CERTIFICATES_SERVICE_ACCOUNT")
                    .add("valueFrom", Json.createObjectBuilder().add("fieldRef", Json.createObjectBuilder()
                            .add("fieldPath", "spec.serviceAccountName"))));
        }
        if (settings.secureMetrics()) {
            env.add(variable("MOORING_METRICS_SECURE", "true"));
        }
        JsonArrayBuilder ports = Json.createArrayBuilder().add(port("http", 9080));
        if (settings.webhooks() || settings.secureMetrics()) {
            ports.add(port("https", 9443));
        }
        JsonObjectBuilder container = Json.createObjectBuilder().add("name", "operator").add("image", settings.image())
                .add("env", env).add("ports", ports)
                .add("startupProbe", probe("/health/started", 2, 3, 60))
                .add("livenessProbe", probe("/health/live", 10, 3, 3))
                // a hung replica leaves the Service's endpoints within 6 s (the next probe within 2 s, two failures 2 s
                // apart, each after 2 s), so webhook calls stop going to it; one slow answer (over 2 s) is no failure
                .add("readinessProbe", probe("/health/ready", 2, 2, 2))
                .add("resources", Json.createObjectBuilder()
                        .add("requests", Json.createObjectBuilder().add("cpu", "100m").add("memory", "384Mi"))
                        .add("limits", Json.createObjectBuilder().add("memory", "768Mi")))
                .add("securityContext", Json.createObjectBuilder().add("allowPrivilegeEscalation", false)
                        .add("readOnlyRootFilesystem", true)
                        .add("capabilities", Json.createObjectBuilder().add("drop", Json.createArrayBuilder().add("ALL"))));
        JsonObjectBuilder pod = Json.createObjectBuilder().add("serviceAccountName", settings.name())
                .add("securityContext", Json.createObjectBuilder().add("runAsNonRoot", true)
                        .add("seccompProfile", Json.createObjectBuilder().add("type", "RuntimeDefault")));
        JsonArrayBuilder mounts = Json.createArrayBuilder();
        JsonArrayBuilder volumes = Json.createArrayBuilder();
        if (settings.webhooks() && !selfManaged) {
            mounts.add(Json.createObjectBuilder().add("name", "webhook-tls").add("mountPath", TLS_MOUNT).add("readOnly", true));
            volumes.add(Json.createObjectBuilder().add("name", "webhook-tls")
                    .add("secret", Json.createObjectBuilder().add("secretName", Certificates.secretName(settings.name()))));
        }
        WRITABLE.forEach((volume, path) -> {
            mounts.add(Json.createObjectBuilder().add("name", volume).add("mountPath", path));
            volumes.add(Json.createObjectBuilder().add("name", volume).add("emptyDir", Json.createObjectBuilder()));
        });
        container.add("volumeMounts", mounts);
        pod.add("volumes", volumes);
        pod.add("containers", Json.createArrayBuilder().add(container));
        JsonObject podLabels = labels(settings);
        return Json.createObjectBuilder().add("apiVersion", "apps/v1").add("kind", "Deployment")
                .add("metadata", metadata(settings).add("labels", podLabels))
                .add("spec", Json.createObjectBuilder().add("replicas", settings.replicas())
                        .add("selector", Json.createObjectBuilder().add("matchLabels", selector(settings)))
                        .add("template", Json.createObjectBuilder().add("metadata", Json.createObjectBuilder().add("labels", podLabels))
                                .add("spec", pod)))
                .build();
    }

    /** The Service of the webhooks: port 443 to the pods' HTTPS port. */
    public static JsonObject service(Settings settings) {
        return Json.createObjectBuilder().add("apiVersion", "v1").add("kind", "Service")
                .add("metadata", metadata(settings).add("labels", labels(settings)))
                .add("spec", Json.createObjectBuilder()
                        .add("selector", selector(settings))
                        .add("ports", Json.createArrayBuilder().add(Json.createObjectBuilder().add("name", "https").add("port", 443)
                                .add("targetPort", "https"))))
                .build();
    }

    private static JsonObjectBuilder metadata(Settings settings) {
        return Json.createObjectBuilder().add("name", settings.name()).add("namespace", settings.namespace());
    }

    private static JsonObject variable(String name, String value) {
        return Json.createObjectBuilder().add("name", name).add("value", value).build();
    }

    private static JsonObject port(String name, int port) {
        return Json.createObjectBuilder().add("name", name).add("containerPort", port).build();
    }

    private static JsonObject probe(String path, int period, int timeout, int failures) {
        // at least 2 s to answer (the kubelet's default, 1 s, is short for a JVM on 2 CPUs under load)
        return Json.createObjectBuilder().add("httpGet", Json.createObjectBuilder().add("path", path).add("port", "http"))
                .add("periodSeconds", period).add("timeoutSeconds", timeout).add("failureThreshold", failures).build();
    }
}
