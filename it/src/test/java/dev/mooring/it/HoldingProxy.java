package dev.mooring.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * A plain-HTTP loopback proxy to the testbed that forwards every request through the testbed's
 * authenticated client, except those its predicate picks: those it holds, unanswered, until
 * closed (an API server that never finishes one kind of request). Test code only.
 */
final class HoldingProxy implements AutoCloseable {

    private static final Set<String> HOP_HEADERS = Set.of("host", "content-length", "connection", "accept-encoding",
            "transfer-encoding", "content-encoding");

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final OkHttpClient upstream;
    private final String target;
    private final Predicate<String> held;
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean holdingOpen = true;
    private final AtomicInteger holding = new AtomicInteger();

    /**
     * @param upstreamClient the testbed's client: its address, TLS trust and credentials
     * @param held picks the requests to hold, given as {@code METHOD /path?query}
     */
    HoldingProxy(ApiClient upstreamClient, Predicate<String> held) throws IOException {
        this.upstream = upstreamClient.getHttpClient().newBuilder().readTimeout(0, TimeUnit.SECONDS).build();
        this.target = upstreamClient.getBasePath();
        this.held = held;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::forward);
        server.setExecutor(threads);
        server.start();
    }

    /** A client of the proxy (no credentials of its own: the proxy adds the testbed's). */
    ApiClient client() {
        return new ApiClient().setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** How many requests it has held so far. */
    int held() {
        return holding.get();
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String request = method + " " + exchange.getRequestURI();
            if (holdingOpen && held.test(request)) {
                holding.incrementAndGet();
                released.await();
                return;
            }
            byte[] body = exchange.getRequestBody().readAllBytes();
            Request.Builder call = new Request.Builder().url(target + exchange.getRequestURI());
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                    values.forEach(value -> call.addHeader(name, value));
                }
            });
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            boolean bodyless = body.length == 0 && ("GET".equals(method) || "HEAD".equals(method) || "DELETE".equals(method));
            call.method(method, bodyless ? null : RequestBody.create(body, type == null ? null : MediaType.parse(type)));
            try (Response answer = upstream.newCall(call.build()).execute()) {
                answer.headers().toMultimap().forEach((name, values) -> {
                    if (!HOP_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                        exchange.getResponseHeaders().put(name, List.copyOf(values));
                    }
                });
                boolean empty = answer.code() == 204 || answer.code() == 304 || "HEAD".equals(method);
                exchange.sendResponseHeaders(answer.code(), empty ? -1 : 0);
                if (!empty) {
                    copy(answer.body().byteStream(), exchange.getResponseBody());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Copies as it reads, flushing each piece: a watch's events go through one by one. */
    private static void copy(InputStream from, OutputStream to) throws IOException {
        byte[] buffer = new byte[16384];
        int read;
        while ((read = from.read(buffer)) >= 0) {
            to.write(buffer, 0, read);
            to.flush();
        }
    }

    /**
     * Stops holding: the requests held so far end without an answer (their clients try again) and
     * every later request is forwarded.
     */
    void release() {
        holdingOpen = false;
        released.countDown();
    }

    @Override
    public void close() {
        released.countDown();
        server.stop(0);
        threads.shutdownNow();
    }
}
