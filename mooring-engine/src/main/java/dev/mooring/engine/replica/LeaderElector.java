package dev.mooring.engine.replica;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.kube.Failures;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.Models;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Elects one active replica with a coordination.k8s.io/v1 Lease.
 *
 * <p>Rules (those of the reference, which follow client-go): every write compares
 * resourceVersion, so two contenders cannot both win; a Lease held by someone else is taken over
 * only after its record stayed unchanged for its advertised duration, measured with the local
 * monotonic clock (other hosts' clocks are never trusted); the leader renews every retry period
 * and loses leadership when it could not renew within the renew deadline, when the Lease is
 * deleted or when another identity holds it; a client error other than 404, 408, 409, 410 and 429
 * (such as 403: not allowed to update Leases) is fatal at once. On an explicit stop the leader
 * keeps renewing while its work drains, then releases the Lease (empty holder, duration 1 s), but
 * only if it still holds it: a successor's Lease is never cleared. Like client-go's, this is
 * coordination, not fencing: reconciles must stay idempotent.
 *
 * <p>Mooring writes its own elector instead of using client-java-extended's because that one
 * starts its own threads and has known re-election bugs.
 */
public final class LeaderElector {

    private static final Logger LOG = Logger.getLogger(LeaderElector.class.getName());

    /** What the elector starts and stops. */
    public interface Leadership {
        /** Leadership acquired: start the work (returns at once). */
        void acquired();

        /** Leadership lost (not on an explicit stop): stop the work; the process is expected to restart. */
        void lost(LeadershipLost cause);
    }

    /** Leadership ended without an explicit stop. */
    public static final class LeadershipLost extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public LeadershipLost(String message) {
            super(message);
        }
    }

    private final KubeHttp http;
    private final ElectionSettings settings;
    private final LongSupplier nanoTime;
    private final LeaseLoop loop;
    private final AtomicLong acquisitions = new AtomicLong();
    private final AtomicLong renewalFailures = new AtomicLong();
    private volatile Observer observer = new Observer() {
    };
    private volatile boolean active;
    private volatile boolean electing;
    private volatile long lastRenewed;
    private String observedRecord;
    private long observedAt;
    private String observedUid;
    /** When a held Lease observed unchanged would expire on this replica's clock; 0: none observed. */
    private long expiresAt;
    /** How the last successful attempt got the Lease, for the acquisition's log record. */
    private String how = "";

    public LeaderElector(KubeHttp http, ElectionSettings settings) {
        this(http, settings, System::nanoTime);
    }

    LeaderElector(KubeHttp http, ElectionSettings settings, LongSupplier nanoTime) {
        this.http = http;
        this.settings = settings;
        this.nanoTime = nanoTime;
        this.loop = new LeaseLoop(settings, nanoTime, LOG);
    }

    public ElectionSettings settings() {
        return settings;
    }

    /** True while this replica holds the Lease and renewed it within the renew deadline. */
    public boolean isLeader() {
        return active && nanoTime.getAsLong() - lastRenewed < settings.renewDeadline().toNanos();
    }

    /** True once the election loop runs (for the started probe of standbys). */
    public boolean electing() {
        return electing;
    }

    /**
     * True when the API server answered a Lease request within the last lease duration: a
     * standby that could take over if the leader's Lease expired.
     */
    public boolean connected() {
        return loop.connected();
    }

    /** Told of each acquisition and each failed renewal, on the election's thread (for counters); must be fast. */
    public interface Observer {
        default void acquired() {
        }

        default void renewalFailed() {
        }
    }

    /** Tell {@code observer} of acquisitions and failed renewals from now on (set it before {@link #run}). */
    public void observe(Observer observer) {
        this.observer = java.util.Objects.requireNonNull(observer, "observer");
    }

    public long acquisitions() {
        return acquisitions.get();
    }

    public long renewalFailures() {
        return renewalFailures.get();
    }

    /**
     * The election loop; runs on a managed thread until {@link #stop} or a loss. Fatal errors
     * are thrown (after telling {@code leadership} if it had been acquired).
     */
    public void run(Leadership leadership) {
        electing = true;
        boolean acquired = false;
        try {
            while (!loop.stopping()) {
                if (attempt()) {
                    acquired = true;
                    break;
                }
                if (loop.pause(untilNextAttempt())) {
                    return;
                }
            }
            if (!acquired) {
                return;
            }
            active = true;
            acquisitions.incrementAndGet();
            observer.acquired();
            String acquiredHow = how;
            LOG.info(() -> "Acquired Lease " + settings.namespace() + "/" + settings.name() + " as " + settings.identity() + " (" + acquiredHow + ")");
            leadership.acquired();
            renewUntilStopped();
        } catch (LeadershipLost lost) {
            active = false;
            LOG.severe(() -> "Lost Lease " + settings.namespace() + "/" + settings.name() + ": " + lost.getMessage());
            leadership.lost(lost);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            active = false;
            if (acquired) {
                release();
            }
            loop.finish();
        }
    }

    /**
     * Ask the loop to end: renewing continues until this call; the caller drains its work
     * before calling it. Waits up to {@code timeout} for the release.
     */
    public void stop(Duration timeout) {
        loop.stop(timeout);
    }

    /**
     * The retry period (jittered), or less when a held Lease would expire sooner: the takeover is
     * tried the moment the record has stayed unchanged for its duration, not up to a retry period
     * later.
     */
    Duration untilNextAttempt() {
        Duration retry = loop.nextRound();
        if (expiresAt == 0) {
            return retry;
        }
        long left = Math.max(0, expiresAt - nanoTime.getAsLong());
        return left < retry.toNanos() ? Duration.ofNanos(left) : retry;
    }

    private void renewUntilStopped() throws InterruptedException {
        while (true) {
            long left = lastRenewed + settings.renewDeadline().toNanos() - nanoTime.getAsLong();
            if (loop.pause(Duration.ofNanos(Math.min(settings.retryPeriod().toNanos(), left)))) {
                return;
            }
            if (!attempt()) {
                renewalFailures.incrementAndGet();
                observer.renewalFailed();
            }
            if (nanoTime.getAsLong() - lastRenewed >= settings.renewDeadline().toNanos()) {
                throw new LeadershipLost("Lease renewal deadline exceeded");
            }
        }
    }

    private String path() {
        return Leases.path(settings.namespace(), settings.name());
    }

    private Duration attemptTimeout() {
        if (!active) {
            // a standby's request may be as slow as a leader's: one slow answer is still contact (readiness holds)
            return settings.renewDeadline();
        }
        long left = lastRenewed + settings.renewDeadline().toNanos() - nanoTime.getAsLong();
        if (left <= 0) {
            throw new LeadershipLost("Lease renewal deadline exceeded");
        }
        return Duration.ofNanos(left);
    }

    /** One GET and a conditional create or update. */
    boolean attempt() {
        long start = nanoTime.getAsLong();
        Duration timeout = attemptTimeout();
        expiresAt = 0;
        try {
            Optional<JsonObject> current = get(timeout);
            loop.answered(failed -> "Lease " + settings.namespace() + "/" + settings.name() + " requests answered again after "
                    + LeaseLoop.failures(failed));
            if (current.isEmpty()) {
                if (active) {
                    throw new LeadershipLost("Leader Lease was deleted");
                }
                JsonObject created = http.send("POST", Leases.path(settings.namespace()), Map.of(), newLease().toString(), "application/json", timeout);
                observedUid = text(created.getAsJsonObject("metadata"), "uid");
                lastRenewed = start;
                how = "created it";
                return true;
            }
            JsonObject lease = current.get();
            JsonObject metadata = lease.getAsJsonObject("metadata");
            JsonObject spec = Leases.spec(lease);
            String uid = text(metadata, "uid");
            if (uid == null || text(metadata, "resourceVersion") == null) {
                throw new IllegalStateException("Lease response is missing UID or resourceVersion");
            }
            String holder = Leases.holder(lease);
            String record = Leases.record(lease);
            if (!record.equals(observedRecord)) {
                observedRecord = record;
                observedAt = nanoTime.getAsLong();
            }
            if (active && (!holder.equals(settings.identity()) || !uid.equals(observedUid))) {
                throw new LeadershipLost("Leader Lease ownership changed");
            }
            if (!holder.isEmpty() && !holder.equals(settings.identity())) {
                JsonElement duration = spec.get("leaseDurationSeconds");
                if (duration == null || !duration.isJsonPrimitive() || duration.getAsLong() <= 0) {
                    throw new IllegalStateException("Held Lease has an invalid leaseDurationSeconds");
                }
                if (nanoTime.getAsLong() - observedAt < TimeUnit.SECONDS.toNanos(duration.getAsLong())) {
                    expiresAt = observedAt + TimeUnit.SECONDS.toNanos(duration.getAsLong());
                    return false;
                }
                how = "taken over from " + holder + ", whose record stayed unchanged for " + duration.getAsLong() + " s";
            } else {
                how = holder.isEmpty() ? "released by its last holder" : "held under this identity before";
            }
            String now = Models.microTime(Instant.now());
            spec.addProperty("holderIdentity", settings.identity());
            spec.addProperty("leaseDurationSeconds", settings.leaseDuration().toSeconds());
            spec.addProperty("renewTime", now);
            if (!holder.equals(settings.identity())) {
                spec.addProperty("acquireTime", now);
                long transitions = spec.has("leaseTransitions") ? spec.get("leaseTransitions").getAsLong() : 0;
                spec.addProperty("leaseTransitions", transitions + 1);
            }
            lease.add("spec", spec);
            JsonObject stored = http.send("PUT", path(), Map.of(), lease.toString(), "application/json", timeout);
            observedUid = text(stored.getAsJsonObject("metadata"), "uid");
            lastRenewed = start;
            return true;
        } catch (KubernetesException e) {
            // 404: the Lease was deleted between a read and a write; the next attempt creates it
            if (Failures.isFatal(e) && e.code() != 404) {
                throw e;
            }
            // the first failure of a run is a warning, the rest detail: an outage is one message, not one per retry
            loop.failed(() -> "Lease " + settings.namespace() + "/" + settings.name() + " request failed: " + e.getMessage()
                    + " (retried every " + settings.retryPeriod().toMillis() + " ms)");
            return false;
        }
    }

    private Optional<JsonObject> get(Duration timeout) {
        return http.getOptional(path(), Map.of(), timeout);
    }

    private JsonObject newLease() {
        return Leases.held(settings.namespace(), settings.name(), settings.identity(), settings.leaseDuration().toSeconds());
    }

    /** Clears the holder, only if this replica still holds the same Lease; failures leave it to expire. */
    private void release() {
        try {
            Optional<JsonObject> current = get(settings.retryPeriod());
            if (current.isEmpty()) {
                return;
            }
            JsonObject lease = current.get();
            JsonObject spec = lease.getAsJsonObject("spec");
            String uid = text(lease.getAsJsonObject("metadata"), "uid");
            if (spec == null || !settings.identity().equals(text(spec, "holderIdentity")) || !Objects.equals(uid, observedUid)) {
                return;
            }
            http.send("PUT", path(), Map.of(), Leases.freed(lease).toString(), "application/json", settings.retryPeriod());
            LOG.info(() -> "Released Lease " + settings.namespace() + "/" + settings.name());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not release Lease " + settings.name() + "; it will expire: " + e.getMessage());
        }
    }

    private static String text(JsonObject object, String member) {
        return Leases.text(object, member);
    }
}
