package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.it.monitoring.FlakyController;
import dev.mooring.manifests.Monitoring;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.json.JsonArray;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The generated monitoring kit against a real Prometheus scraping a running Mooring (a leader
 * with a controller and a webhook): the rules pass promtool, every dashboard query returns data,
 * every series a rule names exists, and the reconcile-errors and informer-disconnected alerts fire
 * during a failing reconciler and an API server outage, and resolve after. Prometheus is scraped
 * and rules evaluated every second, and the rules' windows and hold times are shortened to
 * seconds; their expressions are otherwise the generated ones. The admission method's JSON log
 * records carry the review's fields.
 */
class MonitoringIT {

    private static final String NAME = "mooring-it";
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final Pattern SERIES = Pattern.compile("([a-z_][a-z0-9_]*)\\{");

    private final List<AutoCloseable> running = new ArrayList<>();
    private LibertyProcess liberty;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable process : running) {
            process.close();
        }
        if (liberty != null) {
            liberty.command("stop");
        }
    }

    /** The generated rules with windows and hold times of seconds, so that the test need not wait for minutes. */
    static String quickRules() {
        return Monitoring.ruleGroups(NAME).toString().replaceAll("\\[(5|10|15)m\\]", "[20s]")
                .replaceAll("\"for\":\"[0-9]+[mh]\"", "\"for\":\"2s\"");
    }

    @Test
    void theKitsRulesQueriesAndAlertsWorkOnARealPrometheus() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "monitoring");
        Path dir = Path.of(System.getProperty("mooring.it.failover.dir"), "monitoring");
        Path ear = Ears.exportWithPackage(dir, "monitoring.ear", FlakyController.class, namespace);
        List<String> properties = new ArrayList<>(List.of(LibertyProcess.webhookTls()));
        properties.add("com.ibm.ws.logging.message.format=json");
        // a Lease long enough to outlast the API server outage below: the leader keeps leading through it
        properties.addAll(List.of("mooring.leader-election.enabled=true", "mooring.leader-election.identity=m1",
                "mooring.leader-election.namespace=" + namespace, "mooring.leader-election.lease-name=monitoring",
                "mooring.leader-election.lease-duration=180s", "mooring.leader-election.renew-deadline=150s",
                "mooring.leader-election.retry-period=2s"));
        liberty = LibertyProcess.start("monitoring", dir.resolve("usr"), ear, Map.of(), properties.toArray(String[]::new));
        Eventually.await("Mooring ready as the leader", PATIENCE, () -> liberty.get("/health/ready"), answer -> answer.status() == 200);
        core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("fine"))).execute();
        review("fine-one", namespace);
        review("bad-one", namespace);
        // the admission method's records carry the review's fields
        com.google.gson.JsonObject checked = JsonLogIT.record(liberty.log(), "NamePolicy checks fine-one").orElseThrow();
        Map<String, String> expected = Map.of("ext_webhook", "/validate/core/v1/configmaps/names", "ext_operation", "CREATE",
                "ext_kind", "ConfigMap", "ext_namespace", namespace, "ext_name", "fine-one", "ext_uid", "fine-one");
        expected.forEach((field, value) -> assertEquals(value, checked.has(field) ? checked.get(field).getAsString() : null,
                field + " of " + checked));

        Path bin = PrometheusServer.bin();
        Path rules = Files.writeString(dir.resolve("rules.json"), quickRules());
        assertTrue(PrometheusServer.promtool(bin, "check", "rules", rules.toString()).contains("SUCCESS"));
        // the rules as generated, too: windows and hold times of minutes
        Path generated = Files.writeString(dir.resolve("generated-rules.json"), Monitoring.ruleGroups(NAME).toString());
        assertTrue(PrometheusServer.promtool(bin, "check", "rules", generated.toString()).contains(
                Monitoring.alerts(NAME).size() + " rules found"));
        Path config = Files.writeString(dir.resolve("prometheus.yml"), String.join("\n",
                "global: {scrape_interval: 1s, evaluation_interval: 1s}",
                "rule_files: [" + rules + "]",
                "scrape_configs:",
                "- job_name: " + Monitoring.job(NAME),
                "  metrics_path: /metrics",
                "  static_configs: [{targets: ['127.0.0.1:" + liberty.port + "']}]", ""));
        PrometheusServer.promtool(bin, "check", "config", config.toString());
        PrometheusServer prometheus = PrometheusServer.start(bin, dir.resolve("prometheus"), config);
        running.add(prometheus);
        Eventually.await("Mooring scraped", PATIENCE, () -> prometheus.query("up{job=\"" + Monitoring.job(NAME) + "\"} == 1"),
                result -> result.size() == 1);

        for (Monitoring.Panel panel : Monitoring.panels(NAME)) {
            for (String query : panel.queries()) {
                Eventually.await("data for panel '" + panel.title() + "': " + query, PATIENCE, () -> prometheus.query(query),
                        result -> !result.isEmpty());
            }
        }
        for (Monitoring.Alert alert : Monitoring.alerts(NAME)) {
            for (String series : seriesOf(alert.expression())) {
                JsonArray found = prometheus.series(series + "{job=\"" + Monitoring.job(NAME) + "\"}");
                assertFalse(found.isEmpty(), "alert " + alert.name() + " names " + series + ", which Mooring does not export");
            }
        }

        // /mooring/metrics (what secure metrics serve) has the series of Liberty's /metrics: taken between two of
        // Liberty's, it has every series of the first, and the second has all of its own (series appear, never go)
        String libertyText = liberty.get("/metrics").body();
        PrometheusSeries before = PrometheusSeries.of(libertyText);
        HttpResponse<String> secure = AdmissionFuzz.client(null).send(java.net.http.HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
                + liberty.httpsPort + "/mooring/metrics")).header("Authorization", "Bearer " + Testbed.token(Testbed.runDir(), namespace,
                "scraper")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, secure.statusCode(), secure.body());
        Files.writeString(dir.resolve("liberty-metrics.txt"), libertyText); // for a failure's diagnosis
        Files.writeString(dir.resolve("mooring-metrics.txt"), secure.body());
        PrometheusSeries mooring = PrometheusSeries.of(secure.body());
        PrometheusSeries after = PrometheusSeries.of(liberty.get("/metrics").body());
        Set<String> missing = new java.util.TreeSet<>(before.series());
        missing.removeAll(mooring.series());
        Set<String> extra = new java.util.TreeSet<>(mooring.series());
        extra.removeAll(after.series());
        assertEquals(Set.of(), missing, "series of Liberty's /metrics that /mooring/metrics lacks");
        assertEquals(Set.of(), extra, "series of /mooring/metrics that Liberty's /metrics does not have");
        mooring.types().forEach((family, type) -> assertEquals(after.types().get(family), type, "the type of " + family));

        // a failing reconciler: the errors alert fires, and resolves once the object is gone
        core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("broken")
                .labels(Map.of("fail", "true")))).execute();
        Eventually.await("MooringReconcileErrors firing", PATIENCE, () -> prometheus.alert("MooringReconcileErrors"),
                "firing"::equals);
        core.deleteNamespacedConfigMap("broken", namespace).execute();
        Eventually.await("MooringReconcileErrors resolved", PATIENCE, () -> prometheus.alert("MooringReconcileErrors"),
                "inactive"::equals);

        // an API server outage: the informer alert fires, and resolves when the server is back
        assertEquals("inactive", prometheus.alert("MooringInformerDisconnected"));
        String port = Testbed.env().getProperty("TESTBED_PORT");
        Testbed.stop();
        try {
            Eventually.await("MooringInformerDisconnected firing", PATIENCE, () -> prometheus.alert("MooringInformerDisconnected"),
                    "firing"::equals);
        } finally {
            Testbed.restart(port);
        }
        Eventually.await("MooringInformerDisconnected resolved", PATIENCE, () -> prometheus.alert("MooringInformerDisconnected"),
                "inactive"::equals);
        assertEquals("inactive", prometheus.alert("MooringNoLeader"), "the leader kept its Lease through the outage");
    }

    /** The metric names an expression selects ({@code name{...}}), but {@code up}, which Prometheus makes. */
    static Set<String> seriesOf(String expression) {
        Set<String> names = new LinkedHashSet<>();
        Matcher matcher = SERIES.matcher(expression);
        while (matcher.find()) {
            if (!matcher.group(1).equals("up")) {
                names.add(matcher.group(1));
            }
        }
        return names;
    }

    /** One AdmissionReview of creating ConfigMap {@code name}, sent to the webhook as the API server would. */
    private void review(String name, String namespace) throws Exception {
        String body = AdmissionFuzz.configMapCreateReview(name, namespace);
        HttpClient client = AdmissionFuzz.client(null); // the testbed's CA; no client certificate asked for here
        URI route = URI.create("https://127.0.0.1:" + liberty.httpsPort + "/validate/core/v1/configmaps/names");
        HttpResponse<String> answer = Eventually.await("the webhook answers", PATIENCE, () -> AdmissionFuzz.send(client, route,
                new AdmissionFuzz.Case("review of " + name, "POST", "application/json", body.getBytes(StandardCharsets.UTF_8))),
                response -> response.statusCode() == 200);
        assertEquals(!name.startsWith("bad-"), answer.body().contains("\"allowed\":true"), answer.body());
    }
}
