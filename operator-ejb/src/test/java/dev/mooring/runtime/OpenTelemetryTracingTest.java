package dev.mooring.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.mooring.engine.trace.Tracing;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bridge to the OpenTelemetry API, with an SDK and an in-memory exporter standing in for
 * Liberty's MicroProfile Telemetry (TracingIT runs it in Liberty with an OTLP receiver).
 */
class OpenTelemetryTracingTest {

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final OpenTelemetry sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build()).build();
    private final Tracing tracing = new OpenTelemetryTracing(sdk, OpenTelemetry.class);

    private static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    @Test
    void aPassIsASpanWhoseRequestsAreItsChildrenInOneTrace() {
        String traceId;
        try (Tracing.Span pass = tracing.pass("mirror", "ConfigMap", "ops", "a", "r-1")) {
            traceId = pass.traceId();
            try (Tracing.Span request = tracing.request("PATCH", "10.0.0.1:6443", "/api/v1/namespaces/ops/configmaps/a")) {
                request.outcome("200");
            }
            try (Tracing.Span request = tracing.request("GET", "10.0.0.1:6443", "/api/v1/namespaces/ops/secrets/b")) {
                request.outcome("404");
            }
            pass.outcome("success");
        }
        List<SpanData> spans = exported.getFinishedSpanItems();
        assertEquals(3, spans.size(), spans.toString());
        SpanData pass = spans.get(2);
        assertEquals("reconcile mirror", pass.getName());
        assertEquals(SpanKind.INTERNAL, pass.getKind());
        assertEquals(traceId, pass.getTraceId());
        assertEquals("ConfigMap", attribute(pass, "mooring.kind"));
        assertEquals("ops", attribute(pass, "k8s.namespace.name"));
        assertEquals("a", attribute(pass, "mooring.name"));
        assertEquals("r-1", attribute(pass, "mooring.reconcile_id"));
        assertEquals("success", attribute(pass, "mooring.outcome"));
        assertEquals(StatusCode.UNSET, pass.getStatus().getStatusCode());
        SpanData patch = spans.get(0);
        assertEquals("PATCH", patch.getName());
        assertEquals(SpanKind.CLIENT, patch.getKind());
        assertEquals(pass.getSpanId(), patch.getParentSpanId());
        assertEquals(traceId, patch.getTraceId());
        assertEquals("/api/v1/namespaces/ops/configmaps/a", attribute(patch, "url.path"));
        assertEquals("200", attribute(patch, "http.response.status_code"));
        assertEquals(StatusCode.ERROR, spans.get(1).getStatus().getStatusCode(), "a 404 answer is a client error");
    }

    @Test
    void aRequestOutsideATracedPassIsNotTraced() {
        assertSame(Tracing.Span.NONE, tracing.request("GET", "10.0.0.1:6443", "/api/v1/configmaps"));
        assertEquals(List.of(), exported.getFinishedSpanItems());
    }

    @Test
    void aFailedAdmissionCallHasTheErrorStatus() {
        try (Tracing.Span call = tracing.admission("/validate/v1/pods/p", "CREATE", "Pod", "ops", "p", "uid-1")) {
            call.outcome("failed");
        }
        SpanData span = exported.getFinishedSpanItems().get(0);
        assertEquals("admit /validate/v1/pods/p", span.getName());
        assertEquals("uid-1", attribute(span, "mooring.uid"));
        assertEquals(StatusCode.ERROR, span.getStatus().getStatusCode());
    }

    @Test
    void aDisabledSdkRecordsNothingAndGivesNoIds() {
        Tracing off = new OpenTelemetryTracing(OpenTelemetry.noop(), OpenTelemetry.class);
        try (Tracing.Span pass = off.pass("mirror", "ConfigMap", "ops", "a", "r-1")) {
            assertNull(pass.traceId());
            assertSame(Tracing.Span.NONE, off.request("GET", "h", "/p"), "no recording span is current");
        }
    }
}
