package dev.mooring.manifests;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;

/**
 * The monitoring kit of an operator, for a cluster that runs the Prometheus Operator: a Service
 * in front of the pods' metrics, a {@code ServiceMonitor} that has Prometheus scrape it, a
 * {@code PrometheusRule} with the alerts an on-call needs, and a Grafana dashboard in a
 * ConfigMap (labelled {@value #DASHBOARD_LABEL} for Grafana's dashboard sidecar).
 *
 * <p>Every expression selects the operator's series by {@code job="<name>-metrics"}: the job a
 * ServiceMonitor gives the metrics Service's targets.
 */
public final class Monitoring {

    /** The label Grafana's dashboard sidecar looks for. */
    public static final String DASHBOARD_LABEL = "grafana_dashboard";

    private Monitoring() {
    }

    /** One alert of the rule: its name, expression, how long it must hold, severity and what to tell. */
    public record Alert(String name, String expression, String holdFor, String severity, String summary) {
    }

    /** One dashboard panel: its title, unit and queries. */
    public record Panel(String title, String unit, List<String> queries) {
    }

    /** The name of the metrics Service, and the job of its targets. */
    public static String job(String name) {
        return name + "-metrics";
    }

    /** Every object of the kit, in install order. */
    public static List<JsonObject> objects(Workload.Settings settings) {
        return List.of(service(settings), serviceMonitor(settings), rule(settings), dashboardConfigMap(settings));
    }

    /** The alerts, with the job's selector in their expressions. */
    public static List<Alert> alerts(String name) {
        String job = "job=\"" + job(name) + "\"";
        return List.of(
                new Alert("MooringReconcileErrors", "sum by (controller) (rate(controller_runtime_reconcile_errors_total{" + job
                        + "}[5m])) > 0", "15m", "warning",
                        "Controller {{ $labels.controller }} has failed reconciles for 15 minutes (retried with backoff)"),
                new Alert("MooringTerminalReconcileErrors", "sum by (controller) (increase(controller_runtime_terminal_reconcile_errors_total{"
                        + job + "}[15m])) > 0", "0m", "warning",
                        "Controller {{ $labels.controller }} gave up on objects (terminal errors): they wait for a change"),
                new Alert("MooringWorkQueueGrowing", "sum by (controller) (workqueue_depth{" + job + "}) > 0 and sum by (controller) "
                        + "(deriv(workqueue_depth{" + job + "}[10m])) > 0", "15m", "warning",
                        "The queue of controller {{ $labels.controller }} has grown for 15 minutes"),
                new Alert("MooringStuckReconcile", "max by (controller) (workqueue_longest_running_processor_seconds{" + job
                        + "}) > 300", "5m", "warning", "A pass of controller {{ $labels.controller }} has run for over 5 minutes"),
                new Alert("MooringInformerDisconnected", "min by (informer) (mooring_informer_connected{" + job + "}) == 0", "2m",
                        "critical", "The watch of {{ $labels.informer }} has not reached the API server for 2 minutes"),
                new Alert("MooringNoLeader", "max(leader_election_master_status{" + job + "}) == 0", "5m", "critical",
                        "No replica of " + name + " holds its Lease: nothing is reconciled"),
                new Alert("MooringDown", "absent(up{" + job + "} == 1)", "5m", "critical", "No replica of " + name + " is scraped"),
                new Alert("MooringWebhookErrors", "sum by (webhook) (rate(controller_runtime_webhook_requests_total{" + job
                        + ",code=~\"5..\"}[5m])) > 0", "10m", "warning",
                        "Webhook {{ $labels.webhook }} answers with server errors"),
                new Alert("MooringWebhookSlow", "histogram_quantile(0.99, sum by (webhook, le) "
                        + "(rate(controller_runtime_webhook_latency_seconds_bucket{" + job + "}[5m]))) > 2", "10m", "warning",
                        "Webhook {{ $labels.webhook }} takes over 2 s at the 99th percentile (the API server gives up at its timeout)"),
                new Alert("MooringWebhookCertificateExpiresSoon", "min(mooring_webhook_certificate_expiry_seconds{" + job
                        + "} > 0) - time() < 7 * 24 * 3600", "1h", "warning",
                        "The webhooks' serving certificate of " + name + " expires within 7 days"));
    }

    /** The dashboard's panels, with the job's selector in their queries. */
    public static List<Panel> panels(String name) {
        String job = "job=\"" + job(name) + "\"";
        return List.of(
                new Panel("Reconciles by result", "ops", List.of(
                        "sum by (controller, result) (rate(controller_runtime_reconcile_total{" + job + "}[5m]))")),
                new Panel("Reconcile errors", "ops", List.of(
                        "sum by (controller) (rate(controller_runtime_reconcile_errors_total{" + job + "}[5m]))",
                        "sum by (controller) (rate(controller_runtime_terminal_reconcile_errors_total{" + job + "}[5m]))")),
                new Panel("Reconcile time, 50th and 99th percentile", "s", List.of(
                        "histogram_quantile(0.5, sum by (controller, le) (rate(controller_runtime_reconcile_time_seconds_bucket{" + job
                                + "}[5m])))",
                        "histogram_quantile(0.99, sum by (controller, le) (rate(controller_runtime_reconcile_time_seconds_bucket{" + job
                                + "}[5m])))")),
                new Panel("Workers busy", "short", List.of(
                        "sum by (controller) (controller_runtime_active_workers{" + job + "})",
                        "max by (controller) (controller_runtime_max_concurrent_reconciles{" + job + "})")),
                new Panel("Queue depth", "short", List.of("sum by (controller) (workqueue_depth{" + job + "})",
                        "sum by (controller) (mooring_workqueue_delayed{" + job + "})")),
                new Panel("Queue wait, 99th percentile", "s", List.of(
                        "histogram_quantile(0.99, sum by (controller, le) (rate(workqueue_queue_duration_seconds_bucket{" + job
                                + "}[5m])))")),
                new Panel("API requests by code", "reqps", List.of(
                        "sum by (code, method) (rate(rest_client_requests_total{" + job + "}[5m]))")),
                new Panel("API request latency, 99th percentile", "s", List.of(
                        "histogram_quantile(0.99, sum by (verb, le) (rate(rest_client_request_duration_seconds_bucket{" + job
                                + "}[5m])))")),
                new Panel("Leadership", "short", List.of("max by (instance) (leader_election_master_status{" + job + "})")),
                new Panel("Informers connected", "short", List.of("min by (informer) (mooring_informer_connected{" + job + "})")),
                new Panel("Webhook requests by code", "reqps", List.of(
                        "sum by (webhook, code) (rate(controller_runtime_webhook_requests_total{" + job + "}[5m]))")),
                new Panel("Webhook latency, 99th percentile", "s", List.of(
                        "histogram_quantile(0.99, sum by (webhook, le) (rate(controller_runtime_webhook_latency_seconds_bucket{" + job
                                + "}[5m])))")),
                new Panel("Webhook certificate expiry", "dtdurations", List.of(
                        "min(mooring_webhook_certificate_expiry_seconds{" + job + "} > 0) - time()")));
    }

    /**
     * The Service in front of the pods' metrics: the HTTP port, where Liberty serves
     * {@code /metrics}; with secure metrics the HTTPS port, where Mooring serves
     * {@code /mooring/metrics} to authorized callers.
     */
    static JsonObject service(Workload.Settings settings) {
        boolean secure = settings.secureMetrics();
        return Json.createObjectBuilder().add("apiVersion", "v1").add("kind", "Service")
                .add("metadata", metadata(settings, job(settings.name())).add("labels", kitLabels(settings)))
                .add("spec", Json.createObjectBuilder()
                        .add("selector", Json.createObjectBuilder().add("app.kubernetes.io/name", settings.name()))
                        .add("ports", Json.createArrayBuilder().add(Json.createObjectBuilder().add("name", "metrics")
                                .add("port", secure ? 9443 : 9080).add("targetPort", secure ? "https" : "http"))))
                .build();
    }

    /**
     * The ServiceMonitor. With secure metrics Prometheus sends its ServiceAccount token (which
     * must be bound to the {@code <name>-metrics-reader} ClusterRole) over HTTPS without checking
     * the serving certificate, as Kubebuilder's scaffold does: the port's certificate is the
     * webhooks' or Liberty's generated one, which names no address Prometheus scrapes.
     */
    static JsonObject serviceMonitor(Workload.Settings settings) {
        JsonObjectBuilder endpoint = Json.createObjectBuilder().add("port", "metrics").add("interval", "30s");
        if (settings.secureMetrics()) {
            endpoint.add("path", Rbac.METRICS_PATH).add("scheme", "https")
                    .add("bearerTokenFile", "/var/run/secrets/kubernetes.io/serviceaccount/token")
                    .add("tlsConfig", Json.createObjectBuilder().add("insecureSkipVerify", true));
        } else {
            endpoint.add("path", "/metrics");
        }
        return Json.createObjectBuilder().add("apiVersion", "monitoring.coreos.com/v1").add("kind", "ServiceMonitor")
                .add("metadata", metadata(settings, settings.name()).add("labels", Workload.labels(settings)))
                .add("spec", Json.createObjectBuilder()
                        .add("selector", Json.createObjectBuilder().add("matchLabels", kitLabels(settings)))
                        .add("namespaceSelector", Json.createObjectBuilder().add("matchNames",
                                Json.createArrayBuilder().add(settings.namespace())))
                        .add("endpoints", Json.createArrayBuilder().add(endpoint)))
                .build();
    }

    /** The {@code PrometheusRule}; its {@code spec} is a Prometheus rule file as it stands. */
    static JsonObject rule(Workload.Settings settings) {
        return Json.createObjectBuilder().add("apiVersion", "monitoring.coreos.com/v1").add("kind", "PrometheusRule")
                .add("metadata", metadata(settings, settings.name()).add("labels", Workload.labels(settings)))
                .add("spec", ruleGroups(settings.name()))
                .build();
    }

    /** The rule groups, as a Prometheus rule file holds them ({@code groups: [...]}). */
    public static JsonObject ruleGroups(String name) {
        JsonArrayBuilder rules = Json.createArrayBuilder();
        for (Alert alert : alerts(name)) {
            rules.add(Json.createObjectBuilder().add("alert", alert.name()).add("expr", alert.expression()).add("for", alert.holdFor())
                    .add("labels", Json.createObjectBuilder().add("severity", alert.severity()))
                    .add("annotations", Json.createObjectBuilder().add("summary", alert.summary())));
        }
        return Json.createObjectBuilder().add("groups", Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("name", name + ".mooring").add("rules", rules))).build();
    }

    static JsonObject dashboardConfigMap(Workload.Settings settings) {
        return Json.createObjectBuilder().add("apiVersion", "v1").add("kind", "ConfigMap")
                .add("metadata", metadata(settings, settings.name() + "-dashboard")
                        .add("labels", Json.createObjectBuilder(Workload.labels(settings)).add(DASHBOARD_LABEL, "1")))
                .add("data", Json.createObjectBuilder().add(settings.name() + ".json", dashboard(settings.name()).toString()))
                .build();
    }

    /** The Grafana dashboard (JSON model, schema 39), on the data source chosen in its {@code datasource} variable. */
    public static JsonObject dashboard(String name) {
        JsonArrayBuilder panels = Json.createArrayBuilder();
        int index = 0;
        for (Panel panel : panels(name)) {
            JsonArrayBuilder targets = Json.createArrayBuilder();
            char ref = 'A';
            for (String query : panel.queries()) {
                targets.add(Json.createObjectBuilder().add("refId", String.valueOf(ref++)).add("expr", query)
                        .add("datasource", datasource()));
            }
            panels.add(Json.createObjectBuilder().add("id", index + 1).add("type", "timeseries").add("title", panel.title())
                    .add("datasource", datasource())
                    .add("gridPos", Json.createObjectBuilder().add("x", (index % 2) * 12).add("y", (index / 2) * 8).add("w", 12).add("h", 8))
                    .add("fieldConfig", Json.createObjectBuilder().add("defaults", Json.createObjectBuilder().add("unit", panel.unit()))
                            .add("overrides", JsonArray.EMPTY_JSON_ARRAY))
                    .add("targets", targets));
            index++;
        }
        return Json.createObjectBuilder().add("title", name + " (Mooring operator)").add("uid", uid(name))
                .add("schemaVersion", 39).add("editable", true).add("refresh", "30s")
                .add("time", Json.createObjectBuilder().add("from", "now-6h").add("to", "now"))
                .add("tags", Json.createArrayBuilder().add("mooring").add("kubernetes-operator"))
                .add("templating", Json.createObjectBuilder().add("list", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("name", "datasource").add("type", "datasource").add("query", "prometheus").add("label", "Data source"))))
                .add("panels", panels)
                .build();
    }

    private static JsonObject datasource() {
        return Json.createObjectBuilder().add("type", "prometheus").add("uid", "${datasource}").build();
    }

    /** A dashboard uid: at most 40 characters of the name's letters, digits and dashes. */
    private static String uid(String name) {
        String uid = "mooring-" + name.replaceAll("[^A-Za-z0-9-]", "-");
        return uid.length() <= 40 ? uid : uid.substring(0, 40);
    }

    private static JsonObject kitLabels(Workload.Settings settings) {
        return Json.createObjectBuilder(Workload.labels(settings)).add("app.kubernetes.io/component", "metrics").build();
    }

    private static JsonObjectBuilder metadata(Workload.Settings settings, String name) {
        return Json.createObjectBuilder().add("name", name).add("namespace", settings.namespace());
    }
}
