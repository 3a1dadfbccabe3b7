package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.it.monitoring.FlakyController;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Traces through Liberty's MicroProfile Telemetry, exported over OTLP/HTTP to a receiver in the
 * test: a pass that writes is a span with its object and outcome, the API requests it sends are
 * its children in its trace, a failed pass's span has the error status and its log records carry
 * its trace id, and an admission call is a span with the review's fields.
 */
class TracingIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);

    private LibertyProcess liberty;
    private OtlpReceiver receiver;

    @AfterEach
    void stop() throws Exception {
        if (liberty != null) {
            liberty.command("stop");
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    @Test
    void passesAndAdmissionCallsAreSpansAndTheirRequestsTheirChildren() throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, "tracing");
        Path dir = Path.of(System.getProperty("mooring.it.failover.dir")).resolveSibling("tracing");
        Path ear = Ears.exportWithPackage(dir, "tracing.ear", FlakyController.class, namespace);
        receiver = new OtlpReceiver();
        List<String> properties = new ArrayList<>(List.of(LibertyProcess.webhookTls()));
        properties.addAll(List.of("com.ibm.ws.logging.message.format=json", "otel.sdk.disabled=false", "otel.service.name=mooring-it",
                "otel.traces.exporter=otlp", "otel.metrics.exporter=none", "otel.logs.exporter=none",
                "otel.exporter.otlp.protocol=http/protobuf", "otel.exporter.otlp.endpoint=" + receiver.endpoint(),
                "otel.bsp.schedule.delay=200"));
        liberty = LibertyProcess.start("tracing", dir.resolve("usr"), ear, Map.of(),
                Map.of("telemetry.xml", "<server><featureManager><feature>mpTelemetry-2.0</feature></featureManager></server>"),
                properties.toArray(String[]::new));
        Eventually.await("Mooring ready", PATIENCE, () -> liberty.get("/health/ready"), answer -> answer.status() == 200);

        // the ConfigMap mirror's pass reads the mirror and creates it
        core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("source")
                .labels(Map.of("example.com/mirror", "true"))).data(Map.of("k", "v"))).execute();
        OtlpReceiver.Received pass = Eventually.await("the mirror's pass span", PATIENCE,
                () -> span(s -> s.name().equals("reconcile configmap-mirror") && "source".equals(s.attributes().get("mooring.name"))
                        && "success".equals(s.attributes().get("mooring.outcome"))), Optional::isPresent).orElseThrow();
        assertEquals("INTERNAL", pass.kind().replace("SPAN_KIND_", ""));
        assertEquals("ConfigMap", pass.attributes().get("mooring.kind"));
        assertEquals(namespace, pass.attributes().get("k8s.namespace.name"));
        assertTrue(pass.attributes().get("mooring.reconcile_id").matches("[0-9a-f-]{36}"), pass.attributes().toString());
        OtlpReceiver.Received create = Eventually.await("the create of the mirror as a child span", PATIENCE,
                () -> span(s -> s.parentSpanId().equals(pass.spanId()) && "POST".equals(s.name())), Optional::isPresent).orElseThrow();
        assertEquals(pass.traceId(), create.traceId());
        assertEquals("CLIENT", create.kind().replace("SPAN_KIND_", ""));
        assertEquals("/api/v1/namespaces/" + namespace + "/configmaps", create.attributes().get("url.path"));
        assertEquals("201", create.attributes().get("http.response.status_code"));
        assertTrue(receiver.spans.stream().noneMatch(s -> s.name().equals("GET") && s.parentSpanId().isEmpty()
                && s.attributes().getOrDefault("url.path", "").contains("watch")), "informers' requests are not traced");

        // a failing pass: error status, and its log records carry its trace id
        core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("broken")
                .labels(Map.of("fail", "true")))).execute();
        OtlpReceiver.Received failed = Eventually.await("the failed pass's span", PATIENCE,
                () -> span(s -> s.name().equals("reconcile flaky") && "broken".equals(s.attributes().get("mooring.name"))),
                Optional::isPresent).orElseThrow();
        assertEquals("error", failed.attributes().get("mooring.outcome"));
        assertEquals("STATUS_CODE_ERROR", failed.status());
        com.google.gson.JsonObject logged = Eventually.await("the failed pass's log record", PATIENCE,
                () -> JsonLogIT.record(liberty.log(), "Reconcile of V1ConfigMap " + namespace + "/broken"), Optional::isPresent)
                .orElseThrow();
        assertTrue(logged.has("ext_trace_id"), logged.toString());
        String loggedTrace = logged.get("ext_trace_id").getAsString();
        assertTrue(receiver.spans.stream().anyMatch(s -> s.traceId().equals(loggedTrace) && s.name().equals("reconcile flaky")),
                "the log record's trace id " + loggedTrace + " is a pass's trace");

        // an admission call
        review("fine-one", namespace);
        OtlpReceiver.Received admitted = Eventually.await("the admission call's span", PATIENCE,
                () -> span(s -> s.name().equals("admit /validate/core/v1/configmaps/names")), Optional::isPresent).orElseThrow();
        assertEquals("fine-one", admitted.attributes().get("mooring.uid"));
        assertEquals("CREATE", admitted.attributes().get("mooring.operation"));
        assertEquals("answered", admitted.attributes().get("mooring.outcome"));
    }

    private Optional<OtlpReceiver.Received> span(java.util.function.Predicate<OtlpReceiver.Received> which) {
        return receiver.spans.stream().filter(which).findFirst();
    }

    /** One AdmissionReview of creating ConfigMap {@code name}, sent to the webhook as the API server would. */
    private void review(String name, String namespace) throws Exception {
        String body = AdmissionFuzz.configMapCreateReview(name, namespace);
        HttpClient client = AdmissionFuzz.client(null);
        URI route = URI.create("https://127.0.0.1:" + liberty.httpsPort + "/validate/core/v1/configmaps/names");
        Eventually.await("the webhook answers", PATIENCE, () -> AdmissionFuzz.send(client, route,
                new AdmissionFuzz.Case("review of " + name, "POST", "application/json", body.getBytes(StandardCharsets.UTF_8))),
                (HttpResponse<String> response) -> response.statusCode() == 200);
    }
}
