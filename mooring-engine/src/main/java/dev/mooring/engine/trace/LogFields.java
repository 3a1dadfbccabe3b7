package dev.mooring.engine.trace;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of one pass — controller, kind, namespace, name, reconcile id — or of one admission
 * review on every log record written on its thread during it, as separate fields: in Liberty's
 * JSON logs (console or {@code messages.log}) they appear as {@code ext_controller}, {@code ext_kind},
 * {@code ext_namespace}, {@code ext_name}, {@code ext_reconcile_id} (or {@code ext_webhook},
 * {@code ext_operation}, {@code ext_uid}), through Liberty's {@code LogRecordContext} (an
 * {@code ibm-api} package every application sees). Outside Liberty (the engine embedded in tests)
 * there is no such context and the fields are left out; messages still name the object.
 */
public final class LogFields {

    private static final MethodHandle ADD;
    private static final MethodHandle REMOVE;

    static {
        MethodHandle add = null;
        MethodHandle remove = null;
        try {
            Class<?> context = Class.forName("com.ibm.websphere.logging.hpel.LogRecordContext");
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            add = lookup.findStatic(context, "addExtension", MethodType.methodType(void.class, String.class, String.class));
            remove = lookup.findStatic(context, "removeExtension", MethodType.methodType(boolean.class, String.class));
        } catch (ReflectiveOperationException | LinkageError e) {
            // not in Liberty: no fields
        }
        ADD = add;
        REMOVE = remove;
    }

    /** Open fields; closing removes them from the thread. */
    public static final class Scope implements AutoCloseable {
        private final Map<String, String> fields;

        private Scope(Map<String, String> fields) {
            this.fields = fields;
        }

        @Override
        public void close() {
            if (REMOVE == null) {
                return;
            }
            for (String key : fields.keySet()) {
                try {
                    REMOVE.invoke(key);
                } catch (Throwable e) {
                    // a logging extension cannot fail a pass
                }
            }
        }
    }

    /** A scope without fields (immutable). */
    private static final Scope NO_FIELDS = new Scope(Map.of());

    private LogFields() {
    }

    /** True when log records get the fields (inside Liberty). */
    public static boolean available() {
        return ADD != null;
    }

    /**
     * Puts the fields of a pass on this thread's log records until the scope closes; empty values
     * are left out. {@code reconcileId} tells one pass from the next of the same object (as
     * controller-runtime's {@code reconcileID}).
     */
    public static Scope pass(String controller, String kind, String namespace, String name, String reconcileId) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("controller", controller);
        fields.put("kind", kind);
        fields.put("namespace", namespace);
        fields.put("name", name);
        fields.put("reconcile_id", reconcileId);
        return open(fields);
    }

    /**
     * Puts the fields of one admission review on this thread's log records until the scope
     * closes: the webhook (its path), the operation, the object's kind, namespace and name, and
     * the review's uid, which the API server's audit log records too.
     */
    public static Scope admission(String webhook, String operation, String kind, String namespace, String name, String uid) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("webhook", webhook);
        fields.put("operation", operation);
        fields.put("kind", kind);
        fields.put("namespace", namespace);
        fields.put("name", name);
        fields.put("uid", uid);
        return open(fields);
    }

    /**
     * Puts the trace and span ids of {@code span} ({@code ext_trace_id}, {@code ext_span_id}) on
     * this thread's log records until the scope closes; nothing for a span that records nothing.
     */
    public static Scope trace(dev.mooring.engine.trace.Tracing.Span span) {
        if (span.traceId() == null) {
            return NO_FIELDS; // tracing off: nothing to add, nothing allocated on the pass's path
        }
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("trace_id", span.traceId());
        fields.put("span_id", span.spanId());
        return open(fields);
    }

    private static Scope open(Map<String, String> all) {
        Map<String, String> fields = new LinkedHashMap<>();
        all.forEach((key, value) -> {
            if (value != null && !value.isEmpty()) {
                fields.put(key, value);
            }
        });
        if (ADD != null) {
            for (Map.Entry<String, String> field : fields.entrySet()) {
                try {
                    ADD.invoke(field.getKey(), field.getValue());
                } catch (Throwable e) {
                    // a logging extension cannot fail a pass
                }
            }
        }
        return new Scope(fields);
    }
}
