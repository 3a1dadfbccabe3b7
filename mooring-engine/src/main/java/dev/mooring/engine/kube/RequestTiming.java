package dev.mooring.engine.kube;

import dev.mooring.engine.trace.Tracing;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Times every request an HTTP client sends and tells an {@link Observer} its method, host, status
 * code and latency (until the answer's headers: a watch counts once, as it opens), for client-go's
 * {@code rest_client_*} metrics. A request that gets no answer (refused connection, timeout) is
 * reported with the code {@value #NO_ANSWER}, as client-go reports it.
 */
public final class RequestTiming implements Interceptor {

    /** The code of a request that got no HTTP answer. */
    public static final String NO_ANSWER = "<error>";

    /** Told of each request when its answer's headers arrived or it failed; called on the sending thread, must be fast. */
    public interface Observer {
        /**
         * @param method the HTTP method, such as {@code GET}
         * @param host the API server's host and port, such as {@code 10.0.0.1:443}
         * @param code the HTTP status code, or {@value #NO_ANSWER}
         */
        void answered(String method, String host, String code, Duration latency);
    }

    private final Observer observer;
    private final Tracing tracing;

    public RequestTiming(Observer observer) {
        this(observer, Tracing.NONE);
    }

    /** Also a span per request sent during a traced pass or review (see {@link Tracing#request}), ended with its status code. */
    public RequestTiming(Observer observer, Tracing tracing) {
        this.observer = Objects.requireNonNull(observer, "observer");
        this.tracing = Objects.requireNonNull(tracing, "tracing");
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        String host = request.url().host() + ":" + request.url().port();
        long start = System.nanoTime();
        try (Tracing.Span span = tracing.request(request.method(), host, request.url().encodedPath())) {
            try {
                Response response = chain.proceed(request);
                String code = Integer.toString(response.code());
                observer.answered(request.method(), host, code, Duration.ofNanos(System.nanoTime() - start));
                span.outcome(code);
                return response;
            } catch (IOException | RuntimeException e) {
                observer.answered(request.method(), host, NO_ANSWER, Duration.ofNanos(System.nanoTime() - start));
                span.outcome(NO_ANSWER);
                throw e;
            }
        }
    }
}
