package dev.mooring.engine.replica;

import dev.mooring.api.LifecycleEvent;
import dev.mooring.engine.kube.Failures;
import dev.mooring.engine.kube.KubeHttp;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One replica's part among the operator's replicas, in each {@link ReplicaMode}: when its
 * controllers start and stop, which of their writes are sent, and what its health reports.
 *
 * <p>The order, per mode (controller-runtime's manager and the Java Operator SDK's leader
 * election manager keep the same):
 * <ul>
 * <li>one replica: {@code STARTUP}, the workload starts; on stop it drains, then {@code SHUTDOWN};
 * <li>leader-elected: {@code STARTUP}; a warm standby warms its caches (no pass runs); the
 * election runs on a loop thread; once elected, {@code LEADERSHIP_ACQUIRED} (leader scope), then
 * the workers start. The term ends once: on a loss the workload fails, its workers are awaited,
 * {@code LEADERSHIP_LOST} (leader scope), then the process-scope {@code FAILURE} (a lost leader
 * restarts); on a stop the workload drains while the Lease is still renewed, {@code SHUTDOWN}
 * (leader scope), then the Lease is released, then {@code SHUTDOWN};
 * <li>sharded: {@code STARTUP}, the workload starts (it passes the keys of the shards held, none
 * yet), the shard loop runs on a loop thread; on stop the workload drains, then the shards are
 * freed, then {@code SHUTDOWN}.
 * </ul>
 * A failed workload ends the leader term ({@code FAILURE}, leader scope), reports the process
 * {@code FAILURE} and gives the Lease or the shards up at once, so that healthy replicas take over.
 * A fatal error of the election or the shard loop (such as no right to write Leases) fails the
 * workload. Loops run on the executor given, never on the caller's thread.
 */
public final class ReplicaCoordinator {

    private static final Logger LOG = Logger.getLogger(ReplicaCoordinator.class.getName());

    /** What the coordinator starts and stops: the controllers of the deployment. */
    public interface Workload {
        /** Caches synced and queues filled, no pass run (a warm standby). */
        void warmUp();

        /** Passes run from now on (after the caches synced). */
        void start();

        /**
         * Passes run from now on, this replica having just taken the lead over another that may
         * have written until now (by default, {@link #start()}).
         */
        default void takeOver() {
            start();
        }

        /** Every controller stops at once with {@code cause}; the workload stays failed. */
        void fail(Throwable cause);

        /** Stops, draining the work accepted. */
        void stop();

        /** Waits until no worker is in a pass; false if some still were after {@code timeout}. */
        boolean awaitStopped(Duration timeout);

        /** How long a drain may take. */
        Duration longestShutdownTimeout();

        /** {@code listener} runs once when the workload fails (by itself or through {@link #fail}). */
        void onFailure(Runnable listener);

        boolean healthy();

        boolean ready();
    }

    /** The leader term: no term yet, leading, ended (stop or failure), or lost (the process fails after it). */
    enum Term {
        NONE, LEADING, ENDED, LOST
    }

    private final ReplicaMode mode;
    private final LeaderElector elector;
    private final ShardCoordinator shards;
    private final Executor loops;
    private final LifecycleEvents events;
    private final AtomicReference<Term> term = new AtomicReference<>(Term.NONE);
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private volatile Workload workload;

    /**
     * @param requests the client of the Lease requests (never write-guarded)
     * @param loops where the election or shard loop runs, and the shard writes of a round
     */
    public ReplicaCoordinator(ReplicaMode mode, KubeHttp requests, Executor loops, LifecycleEvents events) {
        this(mode, requests, loops, events, System::nanoTime);
    }

    ReplicaCoordinator(ReplicaMode mode, KubeHttp requests, Executor loops, LifecycleEvents events, LongSupplier nanoTime) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.loops = Objects.requireNonNull(loops, "loops");
        this.events = Objects.requireNonNull(events, "events");
        this.elector = mode instanceof ReplicaMode.LeaderElected elected ? new LeaderElector(requests, elected.election(), nanoTime) : null;
        this.shards = mode instanceof ReplicaMode.Sharded sharded ? new ShardCoordinator(requests, sharded.settings(), loops, nanoTime)
                : null;
    }

    public ReplicaMode mode() {
        return mode;
    }

    /** The elector of a leader-elected replica. */
    public Optional<LeaderElector> elector() {
        return Optional.ofNullable(elector);
    }

    /** The shard coordinator of a sharded replica (the controllers pass the keys of its shards). */
    public Optional<ShardCoordinator> shards() {
        return Optional.ofNullable(shards);
    }

    /**
     * {@code requests} as the controllers of a leader-elected replica must send them: every write
     * (objects, status, Events) is checked against the leadership by this replica's own monotonic
     * clock just before it is sent, so that a leader paused past its renew deadline (a long GC,
     * SIGSTOP, a partition) sends nothing when it resumes, before its elector notices the loss.
     * In the other modes, {@code requests} itself (a sharded replica's writes are checked per
     * shard by the engine's {@link ShardGuard}).
     */
    public KubeHttp guard(KubeHttp requests) {
        LeaderElector election = elector;
        if (election == null) {
            return requests;
        }
        ElectionSettings settings = election.settings();
        return requests.guardWrites(election::isLeader, "this replica's leadership of Lease " + settings.namespace() + "/"
                + settings.name() + " expired (renew deadline " + settings.renewDeadline().toSeconds() + " s passed without a renewal)");
    }

    /** Starts {@code work} as the mode says (see the class comment); returns at once. */
    public void start(Workload work) {
        if (workload != null) {
            throw new IllegalStateException("The replica coordinator has started already");
        }
        workload = work;
        work.onFailure(this::workloadFailed);
        events.fire(LifecycleEvent.Type.STARTUP, LifecycleEvent.Scope.PROCESS, null, null);
        if (elector == null) {
            work.start();
            if (shards != null) {
                loops.execute(this::coordinate);
            }
        } else {
            if (((ReplicaMode.LeaderElected) mode).warmStandby()) {
                work.warmUp();
            }
            loops.execute(this::elect);
        }
    }

    /**
     * Stops: the workload drains (the Lease or the shards are still renewed meanwhile), the
     * leader term ends, the shards and the Lease are given up, then {@code SHUTDOWN}.
     */
    public void stop() {
        Workload running = workload;
        if (running != null) {
            LOG.info("Mooring is stopping its controllers");
            running.stop();
        }
        endTerm(LifecycleEvent.Type.SHUTDOWN, null);
        if (shards != null) {
            shards.stop(shards.settings().election().renewDeadline()); // after the drain: the shards are free at once
        }
        if (elector != null) {
            elector.stop(elector.settings().renewDeadline()); // then the Lease is released
        }
        events.fire(LifecycleEvent.Type.SHUTDOWN, LifecycleEvent.Scope.PROCESS, null, null);
    }

    /** The election loop: start the workers when elected; on a loss stop them, then report it. */
    private void elect() {
        try {
            elector.run(new LeaderElector.Leadership() {
                @Override
                public void acquired() {
                    term.set(Term.LEADING);
                    events.fire(LifecycleEvent.Type.LEADERSHIP_ACQUIRED, LifecycleEvent.Scope.LEADER, identity(), null);
                    workload.takeOver();
                }

                @Override
                public void lost(LeaderElector.LeadershipLost cause) {
                    endTerm(LifecycleEvent.Type.LEADERSHIP_LOST, cause);
                }
            });
        } catch (RuntimeException e) {
            loopFailed("leader election", "Leader election", e);
            endTerm(LifecycleEvent.Type.FAILURE, e);
            workload.fail(e);
            events.processFailed(e);
        }
    }

    /** The shard loop, until the stop; a fatal error (such as no right to write Leases) fails the workload. */
    private void coordinate() {
        try {
            shards.run();
        } catch (RuntimeException e) {
            loopFailed("sharding", "Shard coordination", e);
            workload.fail(e);
            events.processFailed(e);
        }
    }

    private void loopFailed(String listed, String logged, RuntimeException e) {
        failures.add(listed + ": " + Failures.describe(e));
        LOG.log(Level.SEVERE, logged + " failed: " + Failures.describe(e), e);
    }

    /** The workload failed: the term ends, the process failure is reported, and the Lease or the shards are given up. */
    private void workloadFailed() {
        endTerm(LifecycleEvent.Type.FAILURE, null);
        if (term.get() != Term.LOST) {
            events.processFailed(null); // a lost term reports the process failure itself, after the leader event
        }
        if (elector != null) {
            // a failed leader gives up its Lease, so that a healthy standby can take over
            loops.execute(() -> elector.stop(elector.settings().renewDeadline()));
        }
        if (shards != null) {
            // and a failed replica its shards, so that the others take them at once
            loops.execute(() -> shards.stop(shards.settings().election().renewDeadline()));
        }
    }

    /** Ends the leader term once: the leader-scope event after the workers stopped, before the release. */
    private void endTerm(LifecycleEvent.Type type, Throwable error) {
        boolean lost = type == LifecycleEvent.Type.LEADERSHIP_LOST;
        if (!term.compareAndSet(Term.LEADING, lost ? Term.LOST : Term.ENDED)) {
            return;
        }
        Workload running = workload;
        if (type != LifecycleEvent.Type.SHUTDOWN) {
            running.fail(error != null ? error : new IllegalStateException("leadership ended"));
        }
        // observers clean up after the workers: wait until their threads left the passes
        running.awaitStopped(running.longestShutdownTimeout());
        events.fire(type, LifecycleEvent.Scope.LEADER, identity(), error);
        if (lost) {
            events.processFailed(error); // the inner scope ends first, then the process fails (a lost leader restarts)
        }
    }

    private String identity() {
        return elector.settings().identity();
    }

    /** The fatal failures of the election or the shard loop, each naming which. */
    public List<String> failures() {
        return List.copyOf(failures);
    }

    /** True while neither a loop nor the workload failed. */
    public boolean healthy() {
        Workload running = workload;
        return failures.isEmpty() && (running == null || running.healthy());
    }

    /** Healthy, leading (with election), in contact through the shard loop (with shards), and every controller synced. */
    public boolean ready() {
        Workload running = workload;
        return healthy() && (elector == null || elector.isLeader()) && (shards == null || shards.connected())
                && (running == null || running.ready());
    }

    /**
     * Readiness: {@link #ready()} on the leader (or without election); on a standby, healthy and
     * in contact with the API server through the election, so able to take over. Leadership is
     * never a DOWN: a Deployment's rolling update waits for readiness, and a standby that never
     * became ready would never replace the old leader.
     */
    public boolean readyToServe() {
        if (elector != null && !elector.isLeader() && term.get() != Term.LEADING) {
            return healthy() && elector.connected();
        }
        return ready();
    }

    /**
     * True after the initial sync on the leader (or without election); on a standby once the
     * election runs and the API server answered it (so readiness, which asks the same contact, is
     * UP from the start on: no DOWN answer between started and ready).
     */
    public boolean started() {
        if (!healthy()) {
            return false;
        }
        if (elector != null && !elector.isLeader()) {
            return elector.electing() && elector.connected() && term.get() != Term.LEADING;
        }
        return ready();
    }

    /** True while this replica leads, or always without election. */
    public boolean leader() {
        return elector == null || elector.isLeader();
    }

    /** Leader election state for health data: null without election. */
    public String leadership() {
        if (elector == null) {
            return null;
        }
        ElectionSettings settings = elector.settings();
        return (elector.isLeader() ? "leader" : "standby") + " (" + settings.identity() + ", Lease " + settings.namespace() + "/"
                + settings.name() + ")";
    }

    /** Sharding state for health data: the shards this replica owns and the members it sees; null without sharding. */
    public String sharding() {
        if (shards == null) {
            return null;
        }
        return "shards " + shards.owned() + " of " + shards.settings().shards() + " (" + shards.settings().election().identity()
                + "; members " + shards.members() + ")";
    }
}
