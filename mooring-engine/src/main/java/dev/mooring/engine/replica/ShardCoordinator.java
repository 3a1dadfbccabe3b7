package dev.mooring.engine.replica;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.kube.Failures;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.Models;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Owns this replica's share of the shards, one coordination.k8s.io/v1 Lease per shard.
 *
 * <p>Each round (every retry period, jittered) lists the group's Leases in one request, renews
 * this replica's member Lease and the shard Leases it holds, counts the live members (its own,
 * and each other member Lease whose record changed within its advertised duration, measured on
 * this replica's monotonic clock), and moves towards its {@link FairShare}: a replica above its
 * share stops taking the keys of its excess shards at once and releases their Leases one round
 * later (the passes already running get that long to finish); a replica below its share takes
 * Leases that are absent, released (no holder) or expired (unchanged for their duration). Every
 * write compares resourceVersion, so two replicas never both take a shard.
 *
 * <p>A shard counts as owned ({@link #owns}) while its Lease was renewed within the renew
 * deadline and it is not being released; writes for its keys are allowed ({@link #writesAllowed})
 * while it was renewed within the renew deadline: a replica paused past the deadline (a long GC,
 * SIGSTOP, a partition) writes nothing when it resumes, and a successor takes the shard only
 * after the full lease duration. As with leader election, this is coordination, not fencing.
 *
 * <p>The shard Leases are written by this class rather than by one {@code LeaderElector} per
 * shard: one loop and one list per round serve every shard, where electors would each hold a
 * thread and send a GET per Lease. The writes of a round go out up to {@link #PARALLEL_WRITES}
 * at a time on the executor given (a round of many shards on a slow API server would otherwise
 * outlast the renew deadline), and each shard counts as renewed from the moment its own write was
 * sent.
 */
public final class ShardCoordinator {

    private static final Logger LOG = Logger.getLogger(ShardCoordinator.class.getName());

    /**
     * The most Lease writes of one round in flight at once: 256 shards answered in 100 ms each
     * are renewed in 3.2 s, within the default renew deadline of 10 s.
     */
    public static final int PARALLEL_WRITES = 8;

    /** Told on the coordinator's thread when this replica starts and stops taking a shard's keys; must be fast. */
    public interface Listener {
        /** The shard's keys are this replica's from now on. */
        void acquired(int shard);

        /** The shard's keys are no longer taken here (it is being released, or its Lease was lost or went stale). */
        void released(int shard);
    }

    private static final Listener NONE = new Listener() {
        @Override
        public void acquired(int shard) {
        }

        @Override
        public void released(int shard) {
        }
    };

    /** Told of shard Leases taken and lost, for counting; called on the coordinator's thread, must be fast. */
    public interface Observer {
        /** A shard Lease was taken. */
        default void acquired(int shard) {
        }

        /** A held shard was lost without being released: its Lease was taken over or deleted, or went stale here. */
        default void lost(int shard) {
        }
    }

    /** A shard Lease held by this replica. */
    private static final class Held {
        final String uid;
        volatile long renewedAt;
        volatile boolean releasing;

        Held(String uid, long renewedAt) {
            this.uid = uid;
            this.renewedAt = renewedAt;
        }
    }

    /** A Lease's record and since when this replica has seen it unchanged. */
    private record Seen(String record, long since) {
    }

    /** What a write of a round does to a shard's Lease. */
    private enum Purpose { RENEW, RELEASE, ACQUIRE }

    /** One Lease write of a round: what is sent, when it was sent, and what came back. */
    private static final class Write {
        final int shard;
        final Purpose purpose;
        final String method;
        final String path;
        final String body;
        /** The holder before an acquisition ("" when none). */
        final String previous;
        volatile long sentAt;
        volatile JsonObject stored;
        volatile KubernetesException failure;

        Write(int shard, Purpose purpose, String method, String path, JsonObject body, String previous) {
            this.shard = shard;
            this.purpose = purpose;
            this.method = method;
            this.path = path;
            this.body = body.toString();
            this.previous = previous;
        }

        void send(KubeHttp http, LongSupplier nanoTime, Duration timeout) {
            sentAt = nanoTime.getAsLong();
            try {
                stored = http.send(method, path, Map.of(), body, "application/json", timeout);
            } catch (KubernetesException e) {
                failure = e;
            } catch (RuntimeException e) { // an answer that is not JSON: as a failed request
                failure = new KubernetesException(0, "", method + " " + path + ": " + e, e);
            }
        }

        KubernetesException outcome() {
            return stored != null || failure != null ? failure
                    : new KubernetesException(0, "", method + " " + path + ": no answer within the round", null);
        }
    }

    private final KubeHttp http;
    private final Executor writes;
    private final ShardSettings settings;
    private final ShardMap map;
    private final LongSupplier nanoTime;
    private final String identity;
    private final String memberLease;
    private final Map<Integer, Held> held = new ConcurrentHashMap<>();
    /** Read and written by the coordinator's thread only. */
    private final Map<String, Seen> seen = new HashMap<>();
    /** Leases of the group that cannot be read, with what is wrong (warned once each); coordinator thread only. */
    private final Map<String, String> unreadable = new HashMap<>();
    private final LeaseLoop loop;
    private final AtomicLong acquisitions = new AtomicLong();
    private volatile Listener listener = NONE;
    private volatile Observer observer = new Observer() {
    };
    private volatile List<String> members = List.of();

    /** A coordinator whose writes of a round go out one after another, on the loop's own thread. */
    public ShardCoordinator(KubeHttp http, ShardSettings settings) {
        this(http, settings, Runnable::run);
    }

    /**
     * A coordinator that sends the writes of a round up to {@link #PARALLEL_WRITES} at a time, on
     * {@code writes} (short tasks, each one request bounded by the retry period) and the loop's
     * own thread; a task {@code writes} refuses is sent by the loop's thread.
     */
    public ShardCoordinator(KubeHttp http, ShardSettings settings, Executor writes) {
        this(http, settings, writes, System::nanoTime);
    }

    ShardCoordinator(KubeHttp http, ShardSettings settings, Executor writes, LongSupplier nanoTime) {
        this.http = http;
        this.writes = Objects.requireNonNull(writes, "writes");
        this.settings = settings;
        this.map = new ShardMap(settings.shards());
        this.nanoTime = nanoTime;
        this.identity = settings.election().identity();
        this.memberLease = settings.memberLease();
        this.loop = new LeaseLoop(settings.election(), nanoTime, LOG);
    }

    public ShardSettings settings() {
        return settings;
    }

    /** The shard of each key. */
    public ShardMap map() {
        return map;
    }

    /** Tell {@code listener} of the shards taken and given up from now on (set it before {@link #run}). */
    public void listen(Listener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** Tell {@code observer} of shards taken and lost from now on (set it before {@link #run}). */
    public void observe(Observer observer) {
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    /** True while this replica takes the keys of {@code key}'s shard. */
    public boolean owns(ObjectKey key) {
        return owns(map.shardOf(key));
    }

    /** True while this replica holds {@code shard}, renewed within the renew deadline, and is not releasing it. */
    public boolean owns(int shard) {
        Held lease = held.get(shard);
        return lease != null && !lease.releasing && fresh(lease);
    }

    /** True while a pass of {@code key} may write: its shard's Lease is held and was renewed within the renew deadline. */
    public boolean writesAllowed(ObjectKey key) {
        Held lease = held.get(map.shardOf(key));
        return lease != null && fresh(lease);
    }

    private boolean fresh(Held lease) {
        return nanoTime.getAsLong() - lease.renewedAt < settings.election().renewDeadline().toNanos();
    }

    /** The shards this replica owns now, in order. */
    public List<Integer> owned() {
        return new TreeSet<>(held.keySet()).stream().filter(this::owns).toList();
    }

    /** The live members seen in the last round, ordered by identity (this replica among them). */
    public List<String> members() {
        return members;
    }

    /** Shard Leases taken so far. */
    public long acquisitions() {
        return acquisitions.get();
    }

    /** True when the API server answered a round within the last lease duration. */
    public boolean connected() {
        return loop.connected();
    }

    /**
     * The coordination loop; runs on a managed thread until {@link #stop}. On its way out it gives
     * up every shard and deletes its member Lease. A fatal error (such as 403: not allowed to
     * write Leases) is thrown after that.
     */
    public void run() {
        try {
            while (!loop.stopping()) {
                step();
                if (loop.pause(loop.nextRound())) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            leave();
            loop.finish();
        }
    }

    /** Ask the loop to end; waits up to {@code timeout} for it to give its shards up. */
    public void stop(Duration timeout) {
        loop.stop(timeout);
    }

    /**
     * One round: list, renew, release what was marked, then move towards the fair share. An
     * answer this replica cannot read (not JSON, or a Lease of the wrong shape) ends the round as
     * a failed request does: nothing more is taken, and shards not renewed in time are given up.
     */
    void step() {
        try {
            round();
        } catch (KubernetesException e) {
            throw e; // fatal (a transient one was counted in the round)
        } catch (RuntimeException e) {
            loop.failed(() -> "Shard Leases " + where() + " could not be read; the round is skipped: " + e);
            expireStale();
        }
    }

    private void round() {
        long start = nanoTime.getAsLong();
        Duration timeout = settings.election().retryPeriod();
        Map<String, JsonObject> leases;
        try {
            leases = list(timeout);
            loop.answered(failed -> "Shard Leases " + where() + " answered again after " + LeaseLoop.failures(failed));
        } catch (KubernetesException e) {
            failed(e);
            expireStale();
            return;
        }
        observe(leases);
        renewMember(leases.get(memberLease), timeout);
        renewOrRelease(leases, timeout);
        List<String> live = liveMembers(leases);
        members = live;
        int share = FairShare.of(live, identity, settings.shards());
        List<Integer> owned = held.entrySet().stream().filter(entry -> !entry.getValue().releasing).map(Map.Entry::getKey)
                .sorted().toList();
        if (owned.size() > share) {
            for (int shard : owned.subList(share, owned.size())) {
                held.get(shard).releasing = true;
                listener.released(shard);
                LOG.info(() -> "Releasing shard " + shard + " (" + settings.shardLease(shard) + "): " + live.size()
                        + " members, a share of " + share + " of " + settings.shards());
            }
        } else if (owned.size() < share) {
            acquire(share - owned.size(), leases, live, timeout);
        }
        expireStale();
    }

    private String where() {
        return settings.election().namespace() + "/" + settings.election().name() + "-*";
    }

    private void failed(KubernetesException e) {
        if (Failures.isFatal(e) && e.code() != 404 && e.code() != 409) {
            throw e;
        }
        loop.failed(() -> "Shard Lease request " + where() + " failed: " + e.getMessage()
                + " (retried every " + settings.election().retryPeriod().toMillis() + " ms)");
    }

    /** The group's Leases (shards and members) by name. */
    private Map<String, JsonObject> list(Duration timeout) {
        JsonObject list = http.getOptional(Leases.path(settings.election().namespace()), Map.of(), timeout)
                .orElseThrow(() -> new KubernetesException(404, "NotFound", "The namespace " + settings.election().namespace()
                        + " of the shard Leases does not exist", null));
        Map<String, JsonObject> leases = new HashMap<>();
        JsonElement items = list.get("items");
        if (items != null && items.isJsonArray()) {
            for (JsonElement item : items.getAsJsonArray()) {
                JsonObject metadata = item.isJsonObject() && item.getAsJsonObject().get("metadata") instanceof JsonObject m ? m : null;
                JsonElement name = metadata == null ? null : metadata.get("name");
                if (name == null || !name.isJsonPrimitive() || !(name.getAsString().startsWith(settings.shardPrefix())
                        || name.getAsString().startsWith(settings.memberPrefix()))) {
                    continue;
                }
                String problem = problem(item.getAsJsonObject());
                if (problem == null) {
                    leases.put(name.getAsString(), item.getAsJsonObject());
                    unreadable.remove(name.getAsString());
                } else if (!problem.equals(unreadable.put(name.getAsString(), problem))) {
                    // as if absent: never taken nor counted; a shard held here is given up (its Lease no longer reads as ours)
                    LOG.warning(() -> "Lease " + settings.election().namespace() + "/" + name.getAsString() + " is ignored: " + problem);
                }
            }
        }
        return leases;
    }

    /** What makes {@code lease} unreadable as a Lease, or null. */
    private static String problem(JsonObject lease) {
        JsonObject metadata = lease.getAsJsonObject("metadata");
        for (String member : new String[] {"uid", "resourceVersion"}) {
            if (!(metadata.get(member) instanceof com.google.gson.JsonPrimitive value) || !value.isString()) {
                return "metadata." + member + " is not a string";
            }
        }
        if (lease.has("spec") && !lease.get("spec").isJsonObject()) {
            return "spec is not an object";
        }
        JsonObject spec = Leases.spec(lease);
        JsonElement holder = spec.get("holderIdentity");
        if (holder != null && !holder.isJsonNull() && !(holder.isJsonPrimitive() && holder.getAsJsonPrimitive().isString())) {
            return "spec.holderIdentity is not a string";
        }
        for (String member : new String[] {"leaseDurationSeconds", "leaseTransitions"}) {
            JsonElement number = spec.get(member);
            if (number != null && !number.isJsonNull() && !(number.isJsonPrimitive() && number.getAsJsonPrimitive().isNumber())) {
                return "spec." + member + " is not a number";
            }
        }
        return null;
    }

    private void observe(Map<String, JsonObject> leases) {
        long now = nanoTime.getAsLong();
        seen.keySet().retainAll(leases.keySet());
        leases.forEach((name, lease) -> {
            String record = Leases.record(lease);
            Seen last = seen.get(name);
            if (last == null || !last.record().equals(record)) {
                seen.put(name, new Seen(record, now));
            }
        });
    }

    /** Whether a Lease held by another replica stayed unchanged for its advertised duration (its holder is gone). */
    private boolean expired(String name, JsonObject lease) {
        JsonElement duration = Leases.spec(lease).get("leaseDurationSeconds");
        long seconds = duration != null && duration.isJsonPrimitive() && duration.getAsLong() > 0 ? duration.getAsLong()
                : settings.election().leaseDuration().toSeconds();
        Seen last = seen.get(name);
        return last != null && nanoTime.getAsLong() - last.since() >= TimeUnit.SECONDS.toNanos(seconds);
    }

    private List<String> liveMembers(Map<String, JsonObject> leases) {
        TreeSet<String> live = new TreeSet<>();
        live.add(identity);
        leases.forEach((name, lease) -> {
            String holder = Leases.holder(lease);
            if (name.startsWith(settings.memberPrefix()) && !holder.isEmpty() && !expired(name, lease)) {
                live.add(holder);
            }
        });
        return List.copyOf(live);
    }

    private void renewMember(JsonObject lease, Duration timeout) {
        try {
            if (lease == null) {
                http.send("POST", Leases.path(settings.election().namespace()), Map.of(),
                        Leases.held(settings.election().namespace(), memberLease, identity,
                                settings.election().leaseDuration().toSeconds()).toString(), "application/json", timeout);
            } else {
                put(memberLease, hold(lease), timeout);
            }
        } catch (KubernetesException e) {
            failed(e);
        }
    }

    /** Renews the shards held (each from the moment its write is sent) and frees those marked for release. */
    private void renewOrRelease(Map<String, JsonObject> leases, Duration timeout) {
        List<Write> round = new ArrayList<>();
        for (Map.Entry<Integer, Held> entry : new ArrayList<>(held.entrySet())) {
            int shard = entry.getKey();
            Held lease = entry.getValue();
            String name = settings.shardLease(shard);
            JsonObject current = leases.get(name);
            if (current == null || !identity.equals(Leases.holder(current))
                    || !lease.uid.equals(Leases.text(current.getAsJsonObject("metadata"), "uid"))) {
                lose(shard, current == null ? "its Lease " + name + " was deleted"
                        : "its Lease " + name + " is held by '" + Leases.holder(current) + "'");
            } else if (lease.releasing) {
                held.remove(shard); // no write of the shard's keys from now on, then the Lease is free
                round.add(new Write(shard, Purpose.RELEASE, "PUT", leasePath(name), Leases.freed(current), identity));
            } else {
                round.add(new Write(shard, Purpose.RENEW, "PUT", leasePath(name), hold(current), identity));
            }
        }
        sendAll(round, timeout);
        for (Write write : round) {
            KubernetesException failure = write.outcome();
            if (failure != null) {
                failed(failure);
            } else if (write.purpose == Purpose.RELEASE) {
                LOG.info(() -> "Released shard " + write.shard + " (" + settings.shardLease(write.shard) + ")");
            } else {
                Held lease = held.get(write.shard);
                if (lease != null) {
                    lease.renewedAt = write.sentAt;
                }
            }
        }
    }

    /** Takes up to {@code wanted} shards that are free or expired, from this replica's first choice on. */
    private void acquire(int wanted, Map<String, JsonObject> leases, List<String> live, Duration timeout) {
        int first = FairShare.firstChoice(live, identity, settings.shards());
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < settings.shards(); i++) {
            int shard = (first + i) % settings.shards();
            String name = settings.shardLease(shard);
            JsonObject current = leases.get(name);
            String holder = current == null ? "" : Leases.holder(current);
            if (!held.containsKey(shard) && (holder.isEmpty() || holder.equals(identity) || expired(name, current))) {
                candidates.add(shard);
            }
        }
        int next = 0;
        while (wanted > 0 && next < candidates.size()) {
            // built per batch, not for every candidate: at most `wanted` are sent, each stamped just before it goes
            List<Write> batch = candidates.subList(next, Math.min(candidates.size(), next + wanted)).stream()
                    .map(shard -> acquisition(shard, leases.get(settings.shardLease(shard))))
                    .toList();
            next += batch.size();
            sendAll(batch, timeout);
            for (Write write : batch) {
                KubernetesException failure = write.outcome();
                if (failure != null) {
                    if (failure.code() != 409) { // 409: another replica was faster
                        failed(failure);
                    }
                    continue;
                }
                held.put(write.shard, new Held(Leases.text(write.stored.getAsJsonObject("metadata"), "uid"), write.sentAt));
                acquisitions.incrementAndGet();
                wanted--;
                LOG.info(() -> "Acquired shard " + write.shard + " (" + settings.shardLease(write.shard) + ")"
                        + (write.previous.isEmpty() ? "" : ", expired from '" + write.previous + "'"));
                observer.acquired(write.shard);
                listener.acquired(write.shard);
            }
        }
    }

    /** The write that takes {@code shard}: a new Lease when {@code current} is null, else {@code current} taken over. */
    private Write acquisition(int shard, JsonObject current) {
        String name = settings.shardLease(shard);
        if (current == null) {
            return new Write(shard, Purpose.ACQUIRE, "POST", Leases.path(settings.election().namespace()),
                    Leases.held(settings.election().namespace(), name, identity, settings.election().leaseDuration().toSeconds()), "");
        }
        String previous = Leases.holder(current); // read before hold() writes this replica's name over it
        return new Write(shard, Purpose.ACQUIRE, "PUT", leasePath(name), hold(current), previous);
    }

    /**
     * Sends {@code round}, up to {@link #PARALLEL_WRITES} at a time: on tasks of the executor and
     * on this thread, which returns when every write has its answer (each is bounded by
     * {@code timeout}). Results are read on this thread only.
     */
    private void sendAll(List<Write> round, Duration timeout) {
        if (round.isEmpty()) {
            return;
        }
        ConcurrentLinkedQueue<Write> pending = new ConcurrentLinkedQueue<>(round);
        CountDownLatch answered = new CountDownLatch(round.size());
        Runnable sender = () -> {
            for (Write write = pending.poll(); write != null; write = pending.poll()) {
                write.send(http, nanoTime, timeout);
                answered.countDown();
            }
        };
        for (int i = 1; i < Math.min(PARALLEL_WRITES, round.size()) && !pending.isEmpty(); i++) {
            try {
                writes.execute(sender);
            } catch (RejectedExecutionException e) {
                break; // this thread sends the rest
            }
        }
        sender.run();
        try {
            // each request ends within the timeout; a write still unanswered after this counts as failed
            answered.await(timeout.toMillis() * 2 + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String leasePath(String name) {
        return Leases.path(settings.election().namespace(), name);
    }

    /** {@code lease} held by this replica from now on: renewed, or taken over with a transition. */
    private JsonObject hold(JsonObject lease) {
        JsonObject spec = Leases.spec(lease);
        String now = Models.microTime(Instant.now());
        boolean takeover = !identity.equals(Leases.holder(lease));
        spec.addProperty("holderIdentity", identity);
        spec.addProperty("leaseDurationSeconds", settings.election().leaseDuration().toSeconds());
        spec.addProperty("renewTime", now);
        if (takeover) {
            spec.addProperty("acquireTime", now);
            JsonElement transitions = spec.get("leaseTransitions");
            spec.addProperty("leaseTransitions", (transitions == null || transitions.isJsonNull() ? 0 : transitions.getAsLong()) + 1);
        }
        lease.add("spec", spec);
        return lease;
    }

    private JsonObject put(String name, JsonObject lease, Duration timeout) {
        return http.send("PUT", Leases.path(settings.election().namespace(), name), Map.of(), lease.toString(), "application/json",
                timeout);
    }

    private void lose(int shard, String why) {
        Held lease = held.remove(shard);
        if (lease == null) {
            return;
        }
        if (!lease.releasing) {
            listener.released(shard);
        }
        observer.lost(shard);
        LOG.warning(() -> "Lost shard " + shard + ": " + why);
    }

    /** Shards not renewed within the renew deadline are given up here (their writes already stopped at the deadline). */
    private void expireStale() {
        for (Map.Entry<Integer, Held> entry : new ArrayList<>(held.entrySet())) {
            if (!fresh(entry.getValue())) {
                lose(entry.getKey(), "its Lease was not renewed within the renew deadline ("
                        + settings.election().renewDeadline().toSeconds() + " s)");
            }
        }
    }

    /** Gives every shard up (writes stop first), then frees their Leases and deletes the member Lease; failures leave them to expire. */
    private void leave() {
        List<Integer> shards = new ArrayList<>(held.keySet());
        Map<Integer, Held> leaving = new HashMap<>(held);
        held.clear();
        leaving.forEach((shard, lease) -> {
            if (!lease.releasing) {
                listener.released(shard);
            }
        });
        Duration timeout = settings.election().retryPeriod();
        try {
            for (int shard : shards) {
                String name = settings.shardLease(shard);
                http.getOptional(Leases.path(settings.election().namespace(), name), Map.of(), timeout).ifPresent(current -> {
                    if (identity.equals(Leases.holder(current))
                            && leaving.get(shard).uid.equals(Leases.text(current.getAsJsonObject("metadata"), "uid"))) {
                        put(name, Leases.freed(current), timeout);
                    }
                });
            }
            http.send("DELETE", Leases.path(settings.election().namespace(), memberLease), Map.of(), null, null, timeout);
            LOG.info(() -> "Left the shard group " + where() + (shards.isEmpty() ? "" : ", releasing shards " + shards));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not release the shard Leases " + where() + "; they will expire: " + e.getMessage());
        }
    }
}
