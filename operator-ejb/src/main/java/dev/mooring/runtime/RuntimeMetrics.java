package dev.mooring.runtime;

import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.PassObserver;
import dev.mooring.engine.model.ControllerDefinition;
import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.engine.pass.Outcome;
import dev.mooring.engine.queue.QueueObserver;
import dev.mooring.engine.replica.LeaderElector;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Mooring's MicroProfile Metrics, named, typed and labelled like controller-runtime's and
 * client-go's where one exists. Labels are low in cardinality: controller, queue, result, HTTP
 * method, code and host, informer, webhook path (never object names, namespaces, UIDs or
 * messages). Every metric is documented in {@code docs/reference/metrics.md}.
 */
@ApplicationScoped
public class RuntimeMetrics implements PassObserver {

    @Inject
    MetricRegistry registry;

    @Inject
    Telemetry telemetry;

    /** The metrics a pass updates, per controller: registered once, then used without lookups. */
    private record PassMetrics(java.util.Map<Outcome.Kind, Counter> results, Counter errors, Counter terminal, Counter timeouts,
            Counter givenUp, Counter readsCaughtUp, Counter readsTimedOut, Timer time) {
    }

    private static final String READ_WAITS = "mooring_read_your_writes_waits_total";
    private static final String READ_WAITS_HELP = "Reads of a pass that waited for the cache to deliver this runtime's own write:"
            + " delivered, or the wait reached mooring.read-your-writes.max-wait";

    private final java.util.Map<String, PassMetrics> passMetrics = new java.util.concurrent.ConcurrentHashMap<>();
    /** By "code method host" and "method host": registered on first use, then found without the registry. */
    private final java.util.Map<String, Counter> requestCounters = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<String, Timer> requestTimers = new java.util.concurrent.ConcurrentHashMap<>();

    /** Register the gauges of a runtime and its controllers. */
    void register(OperatorRuntime runtime, List<ControllerDefinition> controllers, BooleanSupplier ready,
            LeaderElector elector, dev.mooring.engine.replica.ShardCoordinator shards) {
        registry.gauge(meta("mooring_manager_ready", "1 when every controller is synced and, with leader election, this replica leads"),
                () -> ready.getAsBoolean() ? 1 : 0);
        registry.gauge(meta("mooring_informers", "Distinct informers (watches), shared between controllers"),
                runtime::informerCount);
        for (ControllerDefinition definition : controllers) {
            String name = definition.name();
            Tag controller = new Tag("controller", name);
            gauge(runtime, name, "controller_runtime_active_workers", "Reconciles running now", ControllerStatus::processing, controller);
            registry.gauge(meta("controller_runtime_max_concurrent_reconciles", "Configured workers"),
                    definition::workers, controller);
            gauge(runtime, name, "workqueue_depth", "Keys waiting for a worker (not processing, not delayed)",
                    ControllerStatus::queued, controller, new Tag("name", name));
            gauge(runtime, name, "mooring_workqueue_delayed", "Keys with a pending retry or requeue", ControllerStatus::delayed,
                    controller);
            seconds(runtime, name, "workqueue_unfinished_work_seconds",
                    "How long the passes running now have run, added up, in seconds", ControllerStatus::unfinishedWorkSeconds,
                    controller, new Tag("name", name));
            seconds(runtime, name, "workqueue_longest_running_processor_seconds",
                    "How long the longest-running pass running now has run, in seconds", ControllerStatus::longestRunningSeconds,
                    controller, new Tag("name", name));
            java.util.Map<Outcome.Kind, Counter> results = new java.util.EnumMap<>(Outcome.Kind.class);
            for (Outcome.Kind kind : Outcome.Kind.values()) {
                results.put(kind, registry.counter(meta("controller_runtime_reconcile_total", "Finished reconcile passes by result"),
                        controller, new Tag("result", kind.name().toLowerCase(Locale.ROOT))));
            }
            passMetrics.put(name, new PassMetrics(results,
                    registry.counter(meta("controller_runtime_reconcile_errors_total",
                            "Passes that failed and are retried, timed-out ones included"), controller),
                    registry.counter(meta("controller_runtime_terminal_reconcile_errors_total", "Passes that failed terminally"),
                            controller),
                    registry.counter(meta("controller_runtime_reconcile_timeouts_total", "Passes cancelled by the reconcile timeout"),
                            controller),
                    registry.counter(meta("mooring_reconcile_given_up_total",
                            "Keys given up after their retries ran out (retry-limit), until their object changes"), controller),
                    registry.counter(meta(READ_WAITS, READ_WAITS_HELP), controller, new Tag("outcome", "delivered")),
                    registry.counter(meta(READ_WAITS, READ_WAITS_HELP), controller, new Tag("outcome", "timeout")),
                    registry.timer(meta("controller_runtime_reconcile_time",
                            "Duration of reconcile passes in seconds, failed and cancelled ones included"), controller)));
        }
        if (elector != null) {
            Tag lease = new Tag("name", elector.settings().name());
            registry.gauge(meta("leader_election_master_status", "1 while this replica leads"), () -> elector.isLeader() ? 1 : 0, lease);
            Counter acquisitions = registry.counter(meta("mooring_leader_election_acquisitions_total",
                    "Leaderships acquired by this replica"), lease);
            Counter renewalFailures = registry.counter(meta("mooring_leader_election_renewal_failures_total",
                    "Failed Lease renewals (transient)"), lease);
            elector.observe(new LeaderElector.Observer() {
                @Override
                public void acquired() {
                    acquisitions.inc();
                }

                @Override
                public void renewalFailed() {
                    renewalFailures.inc();
                }
            });
        }
        if (shards != null) {
            registerShards(shards);
        }
    }

    private void registerShards(dev.mooring.engine.replica.ShardCoordinator shards) {
        Tag group = new Tag("name", shards.settings().election().name());
        registry.gauge(meta("mooring_shards_owned", "Shards whose keys this replica passes now"), () -> shards.owned().size(), group);
        registry.gauge(meta("mooring_shards", "Shards of the group (mooring.sharding.shards)"), () -> shards.settings().shards(), group);
        registry.gauge(meta("mooring_shard_members", "Live replicas this replica saw in its last round"), () -> shards.members().size(),
                group);
        Counter acquired = registry.counter(meta("mooring_shard_acquisitions_total", "Shard Leases taken by this replica"), group);
        Counter lost = registry.counter(meta("mooring_shard_losses_total",
                "Shards lost without a release: Lease taken over or deleted, or not renewed within the renew deadline"), group);
        shards.observe(new dev.mooring.engine.replica.ShardCoordinator.Observer() {
            @Override
            public void acquired(int shard) {
                acquired.inc();
            }

            @Override
            public void lost(int shard) {
                lost.inc();
            }
        });
    }

    private void gauge(OperatorRuntime runtime, String name, String metric, String help, ToLongFunction<ControllerStatus> value,
            Tag... tags) {
        registry.gauge(meta(metric, help), () -> runtime.statuses().stream().filter(status -> status.name().equals(name))
                .mapToLong(value).findFirst().orElse(0), tags);
    }

    private void seconds(OperatorRuntime runtime, String name, String metric, String help, ToDoubleFunction<ControllerStatus> value,
            Tag... tags) {
        registry.gauge(meta(metric, help), () -> runtime.statuses().stream().filter(status -> status.name().equals(name))
                .mapToDouble(value).findFirst().orElse(0), tags);
    }

    /** The queue metrics of client-go's work queue, named and labelled as its Prometheus provider names them. */
    @Override
    public dev.mooring.engine.trace.Tracing tracing() {
        return telemetry.tracing(); // passes are observed here, so their spans are asked for here too
    }

    @Override
    public QueueObserver queue(String controller) {
        Tag[] tags = {new Tag("controller", controller), new Tag("name", controller)};
        Counter adds = registry.counter(meta("workqueue_adds_total", "Keys that became ready (adds that did not collapse)"), tags);
        Timer waits = registry.timer(meta("workqueue_queue_duration", "Time a key waited in the queue before a worker took it,"
                + " in seconds"), tags);
        Timer work = registry.timer(meta("workqueue_work_duration", "Time a worker held a key, in seconds"), tags);
        Counter retries = registry.counter(meta("workqueue_retries_total", "Keys scheduled again with backoff"), tags);
        return new QueueObserver() {
            @Override
            public void added() {
                adds.inc();
            }

            @Override
            public void waited(Duration queued) {
                waits.update(queued);
            }

            @Override
            public void worked(Duration processing) {
                work.update(processing);
            }

            @Override
            public void retried() {
                retries.inc();
            }
        };
    }

    /** One request to the API server answered (or not): client-go's {@code rest_client_*} metrics. */
    void answered(String method, String host, String code, Duration latency) {
        requestCounters.computeIfAbsent(code + " " + method + " " + host, key -> registry.counter(meta("rest_client_requests_total",
                "Requests to the API server by status code, method and host"), new Tag("code", code), new Tag("method", method),
                new Tag("host", host))).inc();
        requestTimers.computeIfAbsent(method + " " + host, key -> registry.timer(meta("rest_client_request_duration",
                "Latency of requests to the API server until the answer's headers, in seconds"), new Tag("verb", method),
                new Tag("host", host))).update(latency);
    }

    @Override
    public void passed(String controller, Outcome.Kind outcome, Duration duration) {
        PassMetrics metrics = passMetrics.get(controller);
        if (metrics == null) {
            return;
        }
        metrics.results().get(outcome).inc();
        for (PassCounter counter : PassCounter.of(outcome)) {
            switch (counter) {
                case ERRORS -> metrics.errors().inc();
                case TERMINAL -> metrics.terminal().inc();
                case TIMEOUTS -> metrics.timeouts().inc();
            }
        }
        metrics.time().update(duration);
    }

    /** Gauges of an informer's connection: the outage of the API server shows here, and in the health checks' data. */
    @Override
    public void informerCreated(dev.mooring.engine.informer.Informer<?> informer) {
        Tag tag = new Tag("informer", informer.describe());
        registry.gauge(meta("mooring_informer_connected", "1 while the informer's last list or watch reached the API server"),
                () -> informer.connected() ? 1 : 0, tag);
        registry.gauge(meta("mooring_informer_last_contact_seconds",
                "When the API server last answered the informer, in seconds since the epoch (0: never)"),
                () -> informer.lastContactMillis() / 1000.0, tag);
        Counter relists = registry.counter(meta("mooring_informer_relists_total",
                "Relists of the informer after its watch history expired (410 Gone)"), tag);
        informer.onRelist(relists::inc);
    }

    @Override
    public void gaveUp(String controller) {
        PassMetrics metrics = passMetrics.get(controller);
        if (metrics != null) {
            metrics.givenUp().inc();
        }
    }

    @Override
    public void readWaited(String controller, boolean caughtUp) {
        PassMetrics metrics = passMetrics.get(controller);
        if (metrics != null) {
            (caughtUp ? metrics.readsCaughtUp() : metrics.readsTimedOut()).inc();
        }
    }

    /** Removes the informer's metrics: a namespace that leaves a set and joins again gets new ones, bound to its new informer. */
    @Override
    public void informerReleased(dev.mooring.engine.informer.Informer<?> informer) {
        Tag tag = new Tag("informer", informer.describe());
        for (String name : List.of("mooring_informer_connected", "mooring_informer_last_contact_seconds", "mooring_informer_relists_total")) {
            registry.remove(new org.eclipse.microprofile.metrics.MetricID(name, tag));
        }
    }

    /**
     * Register the admission metrics of these routes (labelled by path) and return the observer
     * that updates them.
     */
    dev.mooring.engine.admission.AdmissionDispatcher.Observer admission(List<dev.mooring.engine.admission.AdmissionRoute> routes) {
        java.util.Map<String, java.util.concurrent.atomic.AtomicLong> inFlight = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.Map<String, Timer> latency = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.Map<String, Counter> denials = new java.util.concurrent.ConcurrentHashMap<>();
        // by "path code": codes are known only when answered, registered once each
        java.util.Map<String, Counter> requests = new java.util.concurrent.ConcurrentHashMap<>();
        for (dev.mooring.engine.admission.AdmissionRoute route : routes) {
            Tag webhook = new Tag("webhook", route.path());
            java.util.concurrent.atomic.AtomicLong running = new java.util.concurrent.atomic.AtomicLong();
            inFlight.put(route.path(), running);
            registry.gauge(meta("controller_runtime_webhook_requests_in_flight", "Admission requests being answered now"),
                    running::get, webhook);
            latency.put(route.path(), registry.timer(meta("controller_runtime_webhook_latency",
                    "Time to answer admission requests, in seconds"), webhook));
            denials.put(route.path(), registry.counter(meta("mooring_webhook_denials_total",
                    "Admission requests answered with allowed: false"), webhook));
        }
        return new dev.mooring.engine.admission.AdmissionDispatcher.Observer() {
            @Override
            public dev.mooring.engine.trace.Tracing tracing() {
                return telemetry.tracing();
            }

            @Override
            public void started(dev.mooring.engine.admission.AdmissionRoute route) {
                inFlight.get(route.path()).incrementAndGet();
            }

            @Override
            public void answered(dev.mooring.engine.admission.AdmissionRoute route, int status, boolean denied, Duration duration) {
                inFlight.get(route.path()).decrementAndGet();
                latency.get(route.path()).update(duration);
                requests.computeIfAbsent(route.path() + " " + status, key -> registry.counter(meta(
                        "controller_runtime_webhook_requests_total", "Admission requests by HTTP status code"),
                        new Tag("webhook", route.path()), new Tag("code", String.valueOf(status)))).inc();
                if (denied) {
                    denials.get(route.path()).inc();
                }
            }
        };
    }

    /** The expiry of the webhooks' serving certificate, for an alert before it passes. */
    void certificate(java.util.function.Supplier<java.util.Optional<java.time.Instant>> notAfter) {
        registry.gauge(meta("mooring_webhook_certificate_expiry_seconds",
                "When the webhooks' serving certificate expires, in seconds since the epoch (0: none installed yet)"),
                () -> notAfter.get().map(java.time.Instant::getEpochSecond).orElse(0L));
    }

    private static Metadata meta(String name, String description) {
        return Metadata.builder().withName(name).withDescription(description).build();
    }
}
