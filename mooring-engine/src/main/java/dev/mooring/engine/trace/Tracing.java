package dev.mooring.engine.trace;

/**
 * Where the engine's spans go: a span per reconcile pass, a span per admission review, and a
 * child span per API request sent while one of those is current on the sending thread. The
 * engine calls it on its own threads; an implementation must be fast and must not throw.
 * {@link #NONE}, the default, records nothing and costs an interface call per span.
 */
public interface Tracing {

    /** Records nothing. */
    Tracing NONE = new Tracing() {
        @Override
        public Span pass(String controller, String kind, String namespace, String name, String reconcileId) {
            return Span.NONE;
        }

        @Override
        public Span admission(String webhook, String operation, String kind, String namespace, String name, String uid) {
            return Span.NONE;
        }

        @Override
        public Span request(String method, String host, String path) {
            return Span.NONE;
        }
    };

    /** One span; current on the thread that opened it until closed (on that thread). */
    interface Span extends AutoCloseable {

        /** A span that records nothing. */
        Span NONE = new Span() {
            @Override
            public void outcome(String outcome) {
            }

            @Override
            public void close() {
            }
        };

        /** How it ended: a pass's result ({@code success}, {@code error}, {@code terminal}, {@code cancelled}), a review's answer, a request's status code. */
        void outcome(String outcome);

        /** The span's trace id (32 hex digits), or null when it records nothing. */
        default String traceId() {
            return null;
        }

        /** The span's own id (16 hex digits), or null when it records nothing. */
        default String spanId() {
            return null;
        }

        /** Ends the span and makes its parent current again. */
        @Override
        void close();
    }

    /** A pass of {@code controller} over the object {@code namespace/name} of {@code kind} (namespace null: cluster-scoped). */
    Span pass(String controller, String kind, String namespace, String name, String reconcileId);

    /** An admission review on {@code webhook} (the route's path). */
    Span admission(String webhook, String operation, String kind, String namespace, String name, String uid);

    /**
     * An API request, as a child of the span current on this thread; {@link Span#NONE} when no
     * pass or review is current (informers' lists and watches are not traced).
     */
    Span request(String method, String host, String path);
}
