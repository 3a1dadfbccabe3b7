package dev.mooring.engine.trace;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records spans with their attributes, parent (the span current on the thread) and outcome, for tests. */
public final class RecordingTracing implements Tracing {

    /** One recorded span. */
    public final class Recorded implements Span {
        public final String type;
        public final Map<String, String> attributes;
        public final Recorded parent;
        public volatile String outcome;
        public volatile boolean ended;
        public final String thread = Thread.currentThread().getName();

        Recorded(String type, Map<String, String> attributes) {
            this.type = type;
            this.attributes = attributes;
            this.parent = current.get();
            current.set(this);
        }

        @Override
        public void outcome(String outcome) {
            this.outcome = outcome;
        }

        @Override
        public void close() {
            ended = true;
            current.set(parent);
        }

        @Override
        public String toString() {
            return type + attributes + " -> " + outcome + (parent == null ? "" : " (child of " + parent.type + ")");
        }
    }

    private final ThreadLocal<Recorded> current = new ThreadLocal<>();
    public final List<Recorded> spans = new CopyOnWriteArrayList<>();

    private Recorded open(String type, String... keysAndValues) {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            attributes.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        Recorded span = new Recorded(type, attributes);
        spans.add(span);
        return span;
    }

    @Override
    public Span pass(String controller, String kind, String namespace, String name, String reconcileId) {
        return open("pass", "controller", controller, "kind", kind, "namespace", namespace, "name", name, "reconcile_id", reconcileId);
    }

    @Override
    public Span admission(String webhook, String operation, String kind, String namespace, String name, String uid) {
        return open("admission", "webhook", webhook, "operation", operation, "kind", kind, "namespace", namespace, "name", name,
                "uid", uid);
    }

    @Override
    public Span request(String method, String host, String path) {
        return current.get() == null ? Span.NONE : open("request", "method", method, "host", host, "path", path);
    }

    /** The spans of one type. */
    public List<Recorded> of(String type) {
        return spans.stream().filter(span -> span.type.equals(type)).toList();
    }
}
