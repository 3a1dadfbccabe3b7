package dev.mooring.runtime;

import dev.mooring.engine.trace.Tracing;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The engine's spans through an OpenTelemetry instance: Liberty's MicroProfile Telemetry when the
 * server has the {@code mpTelemetry-2.0} feature ({@link Telemetry} finds it).
 *
 * <p>Every call goes through method handles of the OpenTelemetry API's interfaces, resolved once
 * from the class loader of the instance's own type: Liberty offers that API to applications only
 * as a {@code third-party} API, which an application in {@code dropins} (where Mooring's EAR is
 * deployed) cannot be given, so Mooring cannot compile against it.
 *
 * <p>Spans: {@code reconcile <controller>} (internal) with {@code mooring.controller},
 * {@code mooring.kind}, {@code k8s.namespace.name}, {@code mooring.name},
 * {@code mooring.reconcile_id} and {@code mooring.outcome}; {@code admit <webhook>} (internal)
 * with {@code mooring.webhook}, {@code mooring.operation}, {@code mooring.kind},
 * {@code k8s.namespace.name}, {@code mooring.name}, {@code mooring.uid} and
 * {@code mooring.outcome}; and for each API request sent while a span is current on the thread,
 * a client span named by its method with {@code http.request.method}, {@code server.address},
 * {@code url.path} and {@code http.response.status_code}. A span that ends in an error
 * ({@code error}, {@code cancelled}, {@code failed}; a request's status of 400 or more, or no answer) has the
 * error status. A failure of the API is logged once and the span dropped: tracing never fails a pass.
 */
final class OpenTelemetryTracing implements Tracing {

    private static final Logger LOG = Logger.getLogger(OpenTelemetryTracing.class.getName());

    private final Object tracer;
    private final MethodHandle spanBuilder;
    private final MethodHandle setKind;
    private final MethodHandle setBuilderAttribute;
    private final MethodHandle startSpan;
    private final MethodHandle makeCurrent;
    private final MethodHandle closeScope;
    private final MethodHandle setAttribute;
    private final MethodHandle setStatus;
    private final MethodHandle end;
    private final MethodHandle spanContext;
    private final MethodHandle traceId;
    private final MethodHandle spanId;
    private final MethodHandle valid;
    private final MethodHandle current;
    private final Object internal;
    private final Object client;
    private final Object error;
    private volatile boolean failed;

    /**
     * @param openTelemetry an instance of {@code io.opentelemetry.api.OpenTelemetry}
     * @param type that interface, as the instance's class loader has it
     * @throws IllegalArgumentException when the API is not the one expected
     */
    OpenTelemetryTracing(Object openTelemetry, Class<?> type) {
        try {
            ClassLoader loader = type.getClassLoader();
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> tracerType = loader.loadClass("io.opentelemetry.api.trace.Tracer");
            Class<?> builderType = loader.loadClass("io.opentelemetry.api.trace.SpanBuilder");
            Class<?> spanType = loader.loadClass("io.opentelemetry.api.trace.Span");
            Class<?> kindType = loader.loadClass("io.opentelemetry.api.trace.SpanKind");
            Class<?> statusType = loader.loadClass("io.opentelemetry.api.trace.StatusCode");
            Class<?> contextType = loader.loadClass("io.opentelemetry.api.trace.SpanContext");
            Class<?> scopeType = loader.loadClass("io.opentelemetry.context.Scope");
            tracer = lookup.findVirtual(type, "getTracer", MethodType.methodType(tracerType, String.class)).invoke(openTelemetry,
                    "dev.mooring");
            spanBuilder = lookup.findVirtual(tracerType, "spanBuilder", MethodType.methodType(builderType, String.class));
            setKind = lookup.findVirtual(builderType, "setSpanKind", MethodType.methodType(builderType, kindType));
            setBuilderAttribute = lookup.findVirtual(builderType, "setAttribute",
                    MethodType.methodType(builderType, String.class, String.class));
            startSpan = lookup.findVirtual(builderType, "startSpan", MethodType.methodType(spanType));
            makeCurrent = lookup.findVirtual(spanType, "makeCurrent", MethodType.methodType(scopeType));
            closeScope = lookup.findVirtual(scopeType, "close", MethodType.methodType(void.class));
            setAttribute = lookup.findVirtual(spanType, "setAttribute", MethodType.methodType(spanType, String.class, String.class));
            setStatus = lookup.findVirtual(spanType, "setStatus", MethodType.methodType(spanType, statusType));
            end = lookup.findVirtual(spanType, "end", MethodType.methodType(void.class));
            spanContext = lookup.findVirtual(spanType, "getSpanContext", MethodType.methodType(contextType));
            traceId = lookup.findVirtual(contextType, "getTraceId", MethodType.methodType(String.class));
            spanId = lookup.findVirtual(contextType, "getSpanId", MethodType.methodType(String.class));
            valid = lookup.findVirtual(contextType, "isValid", MethodType.methodType(boolean.class));
            current = lookup.findStatic(spanType, "current", MethodType.methodType(spanType));
            internal = constant(kindType, "INTERNAL");
            client = constant(kindType, "CLIENT");
            error = constant(statusType, "ERROR");
        } catch (Throwable e) {
            throw new IllegalArgumentException("not the OpenTelemetry API Mooring expects: " + e, e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object constant(Class<?> type, String name) {
        return Enum.valueOf((Class) type, name);
    }

    @Override
    public Span pass(String controller, String kind, String namespace, String name, String reconcileId) {
        return start("reconcile " + controller, internal, "mooring.controller", controller, "mooring.kind", kind,
                "k8s.namespace.name", namespace, "mooring.name", name, "mooring.reconcile_id", reconcileId);
    }

    @Override
    public Span admission(String webhook, String operation, String kind, String namespace, String name, String uid) {
        return start("admit " + webhook, internal, "mooring.webhook", webhook, "mooring.operation", operation, "mooring.kind", kind,
                "k8s.namespace.name", namespace, "mooring.name", name, "mooring.uid", uid);
    }

    @Override
    public Span request(String method, String host, String path) {
        if (failed) {
            return Span.NONE;
        }
        try {
            if (!(boolean) valid.invoke(spanContext.invoke(current.invoke()))) {
                return Span.NONE;
            }
        } catch (Throwable e) {
            return broken(e);
        }
        return start(method, client, "http.request.method", method, "server.address", host, "url.path", path);
    }

    private Span start(String spanName, Object kind, String... attributes) {
        if (failed) {
            return Span.NONE;
        }
        try {
            Object builder = setKind.invoke(spanBuilder.invoke(tracer, spanName), kind);
            for (int i = 0; i < attributes.length; i += 2) {
                if (attributes[i + 1] != null) {
                    setBuilderAttribute.invoke(builder, attributes[i], attributes[i + 1]);
                }
            }
            Object span = startSpan.invoke(builder);
            Object scope = makeCurrent.invoke(span);
            Object context = spanContext.invoke(span);
            boolean recorded = (boolean) valid.invoke(context);
            return new Opened(span, scope, recorded ? (String) traceId.invoke(context) : null,
                    recorded ? (String) spanId.invoke(context) : null, kind == client);
        } catch (Throwable e) {
            return broken(e);
        }
    }

    private Span broken(Throwable e) {
        if (!failed) {
            failed = true;
            LOG.log(Level.WARNING, "Tracing is off: the OpenTelemetry API failed: " + e, e);
        }
        return Span.NONE;
    }

    /** An open span, current on its thread until closed. */
    private final class Opened implements Span {
        private final Object span;
        private final Object scope;
        private final String traceId;
        private final String spanId;
        private final boolean request;

        Opened(Object span, Object scope, String traceId, String spanId, boolean request) {
            this.span = span;
            this.scope = Objects.requireNonNull(scope);
            this.traceId = traceId;
            this.spanId = spanId;
            this.request = request;
        }

        @Override
        public void outcome(String outcome) {
            try {
                setAttribute.invoke(span, request ? "http.response.status_code" : "mooring.outcome", outcome);
                if (isError(outcome)) {
                    setStatus.invoke(span, error);
                }
            } catch (Throwable e) {
                broken(e);
            }
        }

        private boolean isError(String outcome) {
            if (request) {
                return !Character.isDigit(outcome.charAt(0)) || outcome.charAt(0) >= '4';
            }
            return outcome.equals("error") || outcome.equals("cancelled") || outcome.equals("failed");
        }

        @Override
        public String traceId() {
            return traceId;
        }

        @Override
        public String spanId() {
            return spanId;
        }

        @Override
        public void close() {
            try {
                closeScope.invoke(scope);
                end.invoke(span);
            } catch (Throwable e) {
                broken(e);
            }
        }
    }
}
