package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.informer.ReadYourWrites;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.test.Eventually;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.NetworkingV1Api;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1NetworkPolicySpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Config;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Read-your-writes against the real API server, its watch delayed by a proxy: a controller that
 * counts an annotation up, one update per pass and the next pass at once, reads its own last
 * write in every pass and is never refused with a conflict; with read-your-writes off, the same
 * controller reads stale versions and its updates are refused (409, counted by the API server's
 * own {@code apiserver_request_total}). NetworkPolicies, which no other test writes, so that the
 * API server's counts are this test's.
 */
class ReadYourWritesIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int COUNT_TO = 4;
    /** How late the proxy forwards each piece of the watch's stream. */
    private static final Duration WATCH_LAG = Duration.ofMillis(600);

    /** What one run saw: passes that read an older count than they had written, and updates refused. */
    private record Run(int staleReads, int conflicts, long serverConflicts, long waitsDelivered) {
    }

    @Test
    void aPassReadsItsOwnLastWriteAndGetsNoConflictWhereWithoutItItDoes() throws Exception {
        Run off = run(ReadYourWrites.Settings.OFF, "ryw-off");
        assertTrue(off.staleReads() > 0 && off.conflicts() > 0 && off.serverConflicts() >= off.conflicts(),
                "without read-your-writes, the lagging watch gives stale reads and conflicts: " + off);

        // on, with a bound no busy machine's lag reaches (the bound itself is the unit tests' business)
        Run on = run(new ReadYourWrites.Settings(true, Duration.ofSeconds(30)), "ryw-on");
        System.out.println("Read-your-writes off: " + off + "; on: " + on);
        assertEquals(new Run(0, 0, 0, on.waitsDelivered()), on, "with it: none, and the API server refused no update");
        assertTrue(on.waitsDelivered() >= COUNT_TO - 1, "the passes after a write waited for it: " + on);
    }

    private static Run run(ReadYourWrites.Settings settings, String prefix) throws Exception {
        CoreV1Api core = new CoreV1Api(Testbed.client());
        NetworkingV1Api networking = new NetworkingV1Api(Testbed.client());
        String namespace = Testbed.createNamespace(core, prefix);
        Map<ObjectKey, Integer> written = new ConcurrentHashMap<>();
        AtomicInteger stale = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();
        AtomicInteger delivered = new AtomicInteger();
        Reconciler<V1NetworkPolicy> counter = (policy, context) -> {
            int count = Integer.parseInt(policy.getMetadata().getAnnotations() == null ? "0"
                    : policy.getMetadata().getAnnotations().getOrDefault("count", "0"));
            Integer last = written.get(context.key());
            if (last != null && count < last) {
                stale.incrementAndGet();
            }
            if (count >= COUNT_TO) {
                return Result.done();
            }
            policy.getMetadata().putAnnotationsItem("count", Integer.toString(count + 1));
            try {
                context.client().update(policy);
            } catch (KubernetesException e) {
                if (e.isConflict()) {
                    conflicts.incrementAndGet();
                }
                throw e;
            }
            written.put(context.key(), count + 1);
            return Result.requeueAfter(Duration.ZERO); // the next pass at once: it reads the cache
        };
        ControllerDefinition definition = Engine.definition("counter", V1NetworkPolicy.class, namespace, null, 1, List.of(), List.of());
        long conflictsBefore = serverConflicts();
        try (FreezingProxy proxy = new FreezingProxy(Integer.parseInt(Testbed.env().getProperty("TESTBED_PORT")))) {
            ApiClient watches = Config.fromConfig(Testbed.runDir().resolve("admin.kubeconfig").toString())
                    .setBasePath("https://127.0.0.1:" + proxy.port()).setReadTimeout(10_000);
            try (Engine engine = new Engine(Testbed.client(), watches, List.of(new OperatorRuntime.Entry(definition, counter)), "default",
                    new OperatorRuntime.Retry(Duration.ofMillis(100), Duration.ofSeconds(1)),
                    builder -> builder.readYourWrites(settings).observer(new dev.mooring.engine.PassObserver() {
                        @Override
                        public void passed(String controller, dev.mooring.engine.pass.Outcome.Kind outcome, Duration duration) {
                        }

                        @Override
                        public void readWaited(String controller, boolean caughtUp) {
                            if (caughtUp) {
                                delivered.incrementAndGet();
                            }
                        }
                    }))) {
                engine.awaitReady();
                proxy.delayAnswers(WATCH_LAG);
                networking.createNamespacedNetworkPolicy(namespace, new V1NetworkPolicy().metadata(new V1ObjectMeta().name("web"))
                        .spec(new V1NetworkPolicySpec().podSelector(new V1LabelSelector()))).execute();
                Eventually.await("counted up to " + COUNT_TO, TIMEOUT,
                        () -> networking.readNamespacedNetworkPolicy("web", namespace).execute().getMetadata().getAnnotations(),
                        annotations -> annotations != null && Integer.toString(COUNT_TO).equals(annotations.get("count")));
                Eventually.await("the last pass read the last count", TIMEOUT, () -> engine.runtime.statuses().get(0),
                        status -> status.queued() == 0 && status.processing() == 0 && status.delayed() == 0);
            }
        }
        return new Run(stale.get(), conflicts.get(), serverConflicts() - conflictsBefore, delivered.get());
    }

    /** The API server's count of NetworkPolicy updates it refused with 409 Conflict. */
    private static long serverConflicts() {
        String metrics = new KubeHttp(Testbed.client()).getText("/metrics", Map.of(), Duration.ofSeconds(30), 50_000_000);
        long total = 0;
        for (String line : metrics.split("\n")) {
            if (line.startsWith("apiserver_request_total{") && line.contains("code=\"409\"")
                    && line.contains("resource=\"networkpolicies\"") && line.contains("verb=\"PUT\"")) {
                total += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }
}
