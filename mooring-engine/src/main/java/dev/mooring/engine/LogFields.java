package dev.mooring.engine;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of one pass — controller, kind, namespace, name — on every log record written on
 * the worker's thread during it, as separate fields: in Liberty's JSON logs (console or
 * {@code messages.log}) they appear as {@code ext_controller}, {@code ext_kind},
 * {@code ext_namespace} and {@code ext_name}, through Liberty's {@code LogRecordContext} (an
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

    private LogFields() {
    }

    /** True when log records get the fields (inside Liberty). */
    public static boolean available() {
        return ADD != null;
    }

    /** Puts the fields of a pass on this thread's log records until the scope closes; empty values are left out. */
    public static Scope pass(String controller, String kind, String namespace, String name) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("controller", controller);
        fields.put("kind", kind);
        if (namespace != null && !namespace.isEmpty()) {
            fields.put("namespace", namespace);
        }
        fields.put("name", name);
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
