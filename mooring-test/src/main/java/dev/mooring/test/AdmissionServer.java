package dev.mooring.test;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.mooring.api.admission.AdmissionCache;
import dev.mooring.engine.admission.AdmissionCaches;
import dev.mooring.engine.admission.AdmissionDispatcher;
import dev.mooring.engine.admission.AdmissionRoute;
import dev.mooring.engine.admission.AdmissionRoutes;
import dev.mooring.engine.admission.WebhookConfigurations;
import dev.mooring.engine.certificates.CertificateAuthority;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.manifests.LocalWebhooks;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Admission beans served over HTTPS in the test's JVM and registered with the test's API server,
 * as envtest's webhook install options do: Mooring's admission dispatcher answers the reviews
 * (the same checks, decoding, timeouts and answers as in Liberty), on a free port of the loopback
 * address with a certificate of a CA made for the test; the webhook configurations are the ones
 * {@code mooring:manifests} generates, scoped to the test's namespace (as an operator's
 * namespaced webhooks without a controller are), their client configuration a URL on this server
 * trusting that CA. {@link #close()} removes the configurations, then stops the server.
 */
final class AdmissionServer implements AutoCloseable {

    private static final Map<String, String> COLLECTIONS = Map.of(
            "ValidatingWebhookConfiguration", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
            "MutatingWebhookConfiguration", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations");

    private final KubeHttp http;
    private final HttpsServer server;
    private final ExecutorService connections;
    private final ExecutorService calls;
    private final List<String> registered = new ArrayList<>();

    private AdmissionServer(KubeHttp http, HttpsServer server, ExecutorService connections, ExecutorService calls) {
        this.http = http;
        this.server = server;
        this.connections = connections;
        this.calls = calls;
    }

    /**
     * Serve {@code beans} and register their webhooks for {@code namespace}.
     *
     * @param reads the live client admission methods get ({@code request.client()})
     * @throws IllegalArgumentException when a bean declares no admission method, or declares
     *     {@code @AdmissionCache} (cached reads are tested with {@link TestAdmissionRequest#withCached})
     */
    static AdmissionServer start(KubeHttp http, String namespace, java.util.function.Function<String,
            dev.mooring.api.client.ResourceClient> reads, List<Object> beans) throws IOException {
        Map<Class<?>, Object> byClass = new HashMap<>();
        for (Object bean : beans) {
            if (!AdmissionRoutes.declares(bean.getClass())) {
                throw new IllegalArgumentException(bean.getClass().getName() + " declares no @Validate or @Mutate method");
            }
            if (bean.getClass().isAnnotationPresent(AdmissionCache.class)) {
                throw new IllegalArgumentException(bean.getClass().getName() + " declares @AdmissionCache: the test kit serves"
                        + " admission beans without caches; test its cached reads with TestAdmissionRequest.withCached");
            }
            byClass.put(bean.getClass(), bean);
        }
        List<AdmissionRoute> routes = AdmissionRoutes.of(new ArrayList<>(byClass.keySet()));
        CertificateAuthority.Issued ca = CertificateAuthority.newCa("mooring-test-" + namespace, Instant.now(), Duration.ofDays(1));
        CertificateAuthority.Issued serving = CertificateAuthority.newServing(ca, List.of("localhost"), Instant.now(),
                Duration.ofDays(1));
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls(serving, ca)));
        ExecutorService connections = Executors.newCachedThreadPool();
        ExecutorService calls = Executors.newCachedThreadPool();
        AdmissionDispatcher dispatcher = AdmissionDispatcher.builder(routes, byClass::get, calls, new AdmissionCaches(reads))
                .build();
        server.createContext("/", exchange -> answer(dispatcher, exchange));
        server.setExecutor(connections);
        server.start();
        AdmissionServer running = new AdmissionServer(http, server, connections, calls);
        try {
            running.register(routes, namespace, CertificateAuthority.pem(ca.certificate()));
        } catch (RuntimeException e) {
            running.close();
            throw e;
        }
        return running;
    }

    /** The port the webhooks are served on. */
    int port() {
        return server.getAddress().getPort();
    }

    private void register(List<AdmissionRoute> routes, String namespace, byte[] caPem) {
        WebhookConfigurations.Target target = new WebhookConfigurations.Target(namespace + ".test.mooring.dev", "mooring-test",
                namespace, 443, caPem);
        JSON json = new JSON();
        List<JsonObject> generated = new ArrayList<>();
        for (KubernetesObject configuration : WebhookConfigurations.of(routes, List.of(), namespace, target)) {
            generated.add(JsonParser.parseString(json.serialize(configuration)).getAsJsonObject());
        }
        for (JsonObject configuration : LocalWebhooks.pointedAt(generated, port(), caPem)) {
            String collection = COLLECTIONS.get(configuration.get("kind").getAsString());
            http.send("POST", collection, Map.of(), configuration.toString(), "application/json");
            registered.add(collection + "/" + configuration.getAsJsonObject("metadata").get("name").getAsString());
        }
    }

    private static void answer(AdmissionDispatcher dispatcher, HttpExchange exchange) throws IOException {
        try (InputStream body = exchange.getRequestBody(); exchange) {
            AdmissionDispatcher.Answer answer = dispatcher.handle(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Content-Type"), body, true);
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static SSLContext tls(CertificateAuthority.Issued serving, CertificateAuthority.Issued ca) {
        try {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            char[] password = "mooring-test".toCharArray();
            keys.setKeyEntry("serving", serving.key(), password, new Certificate[] {serving.certificate(), ca.certificate()});
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(keys, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(factory.getKeyManagers(), null, null);
            return context;
        } catch (java.security.GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot make the test webhooks' TLS context: " + e.getMessage(), e);
        }
    }

    /** Remove the webhook configurations, then stop serving. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (String configuration : registered) {
            try {
                http.send("DELETE", configuration, Map.of(), null, null);
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        registered.clear();
        server.stop(0);
        connections.shutdownNow();
        calls.shutdownNow();
        if (failure != null) {
            throw failure;
        }
    }
}
