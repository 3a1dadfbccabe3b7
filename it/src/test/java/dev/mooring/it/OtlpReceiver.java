package dev.mooring.it;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/** An OTLP/HTTP trace receiver on a free loopback port: keeps every span it is sent, decoded from protobuf. */
final class OtlpReceiver implements AutoCloseable {

    /** One received span, ids in hex, attribute values as text. */
    record Received(String name, String kind, String traceId, String spanId, String parentSpanId, Map<String, String> attributes,
            String status) {
    }

    private final HttpServer server;
    final List<Received> spans = new CopyOnWriteArrayList<>();

    OtlpReceiver() throws java.io.IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/traces", exchange -> {
            try (exchange; InputStream raw = exchange.getRequestBody();
                    InputStream body = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                            ? new GZIPInputStream(raw) : raw) {
                ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
                for (ResourceSpans resource : request.getResourceSpansList()) {
                    for (ScopeSpans scope : resource.getScopeSpansList()) {
                        scope.getSpansList().forEach(span -> {
                            Map<String, String> attributes = new LinkedHashMap<>();
                            for (KeyValue attribute : span.getAttributesList()) {
                                var value = attribute.getValue();
                                attributes.put(attribute.getKey(), value.hasStringValue() ? value.getStringValue()
                                        : value.hasIntValue() ? Long.toString(value.getIntValue()) : value.toString().trim());
                            }
                            spans.add(new Received(span.getName(), span.getKind().name(), hex(span.getTraceId().toByteArray()),
                                    hex(span.getSpanId().toByteArray()), hex(span.getParentSpanId().toByteArray()), attributes,
                                    span.getStatus().getCode().name()));
                        });
                    }
                }
                byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        });
        server.start();
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** The OTLP endpoint to export to. */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
