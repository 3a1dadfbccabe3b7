package dev.mooring.bench;

import dev.mooring.engine.kube.KubeHttp;
import io.kubernetes.client.util.Config;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The loader, in its own process: sends at a fixed rate whatever the answers take (open loop),
 * so that a slow answer delays no later request.
 *
 * <pre>
 * updates KUBECONFIG NAMESPACE N RATE SECONDS [STOP_FILE [GO_FILE]]
 *                                                merge-patches tick t(i mod N) with spec.value i and spec.sent,
 *                                                the epoch ms at which its request left (not its schedule: a
 *                                                loader JVM on a busy machine falls behind by up to seconds,
 *                                                which is no peer's doing; it prints how far); for SECONDS, or,
 *                                                with STOP_FILE, until that file exists (SECONDS at most); with
 *                                                GO_FILE, connected and compiled first, from the moment that
 *                                                file exists
 * admission RATE SECONDS CA_FILE URL...          POSTs one AdmissionReview of a Tick to every URL per tick of
 *                                                the rate, first for SECONDS unmeasured (connections, TLS sessions,
 *                                                compilation), then for SECONDS measured; prints each URL's latencies
 *                                                (ms, from the scheduled time)
 * </pre>
 */
public final class Load {

    private Load() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "updates" -> updates(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), args.length > 6 ? Path.of(args[6]) : null, args.length > 7 ? Path.of(args[7]) : null);
            case "admission" -> admission(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Path.of(args[3]),
                    List.of(args).subList(4, args.length));
            default -> throw new IllegalArgumentException("unknown load " + args[0]);
        }
    }

    private static void updates(String kubeconfig, String namespace, int n, int rate, int seconds, Path stop, Path go)
            throws Exception {
        KubeHttp http = new KubeHttp(Config.fromConfig(kubeconfig));
        AtomicLong failed = new AtomicLong();
        ExecutorService senders = Executors.newFixedThreadPool(64);
        if (go != null) {
            for (int i = 0; i < 20; i++) { // a connection and compiled code, so that the first changes leave on time
                http.get("/apis/bench.mooring.dev/v1/namespaces/" + namespace + "/ticks/t0", Map.of());
            }
            while (!Files.exists(go)) {
                TimeUnit.MILLISECONDS.sleep(5);
            }
        }
        long total = (long) rate * seconds;
        long begin = System.currentTimeMillis() + 100;
        // how late each request left and was answered, against its schedule: the loader's own delay (outside the
        // measured latencies) and the API server's answer (inside them)
        List<Long> leftLate = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Long> answeredLate = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong sent = new AtomicLong();
        schedule(rate, total, (i) -> {
            if (stop != null && i % rate == 0 && Files.exists(stop)) {
                return false;
            }
            sent.incrementAndGet();
            long scheduled = begin + i * 1000 / rate;
            senders.execute(() -> {
                try {
                    long leaving = System.currentTimeMillis();
                    leftLate.add(leaving - scheduled);
                    http.send("PATCH", "/apis/bench.mooring.dev/v1/namespaces/" + namespace + "/ticks/t" + (i % n), Map.of(),
                            "{\"spec\":{\"value\":" + i + ",\"sent\":" + leaving + "}}", "application/merge-patch+json");
                    answeredLate.add(System.currentTimeMillis() - scheduled);
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                }
            });
            return true;
        }, begin);
        senders.shutdown();
        senders.awaitTermination(2, TimeUnit.MINUTES);
        System.out.println("LOAD sent " + sent.get() + " failed " + failed.get() + "; late against the schedule (ms): left "
                + spread(leftLate) + ", answered " + spread(answeredLate));
    }

    /** p50 and p99 of {@code values}, for a log line. */
    private static String spread(List<Long> values) {
        return values.isEmpty() ? "(none)" : "p50 " + Results.percentile(values, 50) + " p99 " + Results.percentile(values, 99);
    }

    private static void admission(int rate, int seconds, Path ca, List<String> urls) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(trusting(ca)).build();
        admission(client, rate, seconds, urls, "LOAD warm-up"); // failures here are not counted
        List<List<Long>> latencies = admission(client, rate, seconds, urls, "LOAD");
        for (int u = 0; u < urls.size(); u++) {
            StringJoiner values = new StringJoiner(",");
            latencies.get(u).forEach(value -> values.add(Long.toString(value)));
            System.out.println("LOAD latencies " + u + " [" + values + "]");
        }
    }

    private static List<List<Long>> admission(HttpClient client, int rate, int seconds, List<String> urls, String label)
            throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> firstFailure = new java.util.concurrent.atomic.AtomicReference<>("");
        List<List<Long>> latencies = new ArrayList<>();
        urls.forEach(url -> latencies.add(java.util.Collections.synchronizedList(new ArrayList<>())));
        AtomicLong failed = new AtomicLong();
        long total = (long) rate * seconds;
        long begin = System.currentTimeMillis() + 100;
        List<java.util.concurrent.CompletableFuture<?>> pending = java.util.Collections.synchronizedList(new ArrayList<>());
        schedule(rate, total, (i) -> {
            long scheduled = begin + i * 1000 / rate;
            for (int u = 0; u < urls.size(); u++) {
                List<Long> measured = latencies.get(u);
                HttpRequest request = HttpRequest.newBuilder(URI.create(urls.get(u)))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(review(i))).build();
                pending.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
                    if (error != null || response.statusCode() != 200) {
                        failed.incrementAndGet();
                        firstFailure.compareAndSet("", error != null ? error.toString() : "HTTP " + response.statusCode());
                    } else {
                        measured.add(System.currentTimeMillis() - scheduled);
                    }
                }));
            }
            return true;
        }, begin);
        for (java.util.concurrent.CompletableFuture<?> future : new ArrayList<>(pending)) {
            try {
                future.get(1, TimeUnit.MINUTES);
            } catch (java.util.concurrent.ExecutionException e) {
                // counted as failed
            }
        }
        System.out.println(label + " sent " + total * urls.size() + " failed " + failed.get() + " " + firstFailure.get());
        return latencies.stream().map(list -> (List<Long>) new ArrayList<>(list)).toList();
    }

    /** What {@link #schedule} runs: false to stop early. */
    private interface Send {
        boolean send(long i);
    }

    /**
     * Runs {@code send} with 0, 1, ... total - 1 at {@code rate} per second from {@code begin};
     * returns after the last, or as soon as {@code send} answers false.
     */
    private static void schedule(int rate, long total, Send send, long begin) throws InterruptedException {
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        AtomicLong next = new AtomicLong();
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        clock.scheduleAtFixedRate(() -> {
            if (done.getCount() == 0) {
                return; // stopped; the clock is being shut down
            }
            long i = next.getAndIncrement();
            if (i >= total || !send.send(i)) {
                done.countDown();
                return;
            }
        }, Math.max(0, begin - System.currentTimeMillis()) * 1000, 1_000_000 / rate, TimeUnit.MICROSECONDS);
        done.await();
        clock.shutdownNow();
    }

    /** An AdmissionReview of the creation of a Tick, as the API server sends it. */
    private static String review(long i) {
        String tick = "{\"apiVersion\":\"bench.mooring.dev/v1\",\"kind\":\"Tick\",\"metadata\":{\"name\":\"a" + i
                + "\",\"namespace\":\"bench\"},\"spec\":{\"value\":" + i + "}}";
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"" + UUID.randomUUID()
                + "\",\"kind\":{\"group\":\"bench.mooring.dev\",\"version\":\"v1\",\"kind\":\"Tick\"},"
                + "\"resource\":{\"group\":\"bench.mooring.dev\",\"version\":\"v1\",\"resource\":\"ticks\"},"
                + "\"requestKind\":{\"group\":\"bench.mooring.dev\",\"version\":\"v1\",\"kind\":\"Tick\"},"
                + "\"requestResource\":{\"group\":\"bench.mooring.dev\",\"version\":\"v1\",\"resource\":\"ticks\"},"
                + "\"name\":\"a" + i + "\",\"namespace\":\"bench\",\"operation\":\"CREATE\","
                + "\"userInfo\":{\"username\":\"bench\",\"groups\":[\"system:authenticated\"]},"
                + "\"object\":" + tick + ",\"oldObject\":null,\"dryRun\":false,"
                + "\"options\":{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"CreateOptions\"}}}";
    }

    private static SSLContext trusting(Path caFile) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caFile)) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
