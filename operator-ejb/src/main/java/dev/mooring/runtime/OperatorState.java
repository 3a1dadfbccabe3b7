package dev.mooring.runtime;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.OperatorRuntime;
import dev.mooring.engine.model.ControllerStatus;
import dev.mooring.engine.replica.ReplicaCoordinator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the health checks, the REST resources, the metrics and {@code Controllers} read of the
 * running operator: the failures of its start, the runtime and the replica coordination once
 * {@link OperatorManager} has built them. Before that (or without controllers) it answers as an
 * operator with nothing to run: healthy, ready, leading, no controller. Safe for concurrent use.
 */
public final class OperatorState {

    private final List<String> startFailures = new CopyOnWriteArrayList<>();
    private volatile OperatorRuntime runtime;
    private volatile ReplicaCoordinator replicas;

    /** The start failed: liveness DOWN with {@code message}. */
    void failed(String message) {
        startFailures.add(message);
    }

    /** The controllers are built and handed to {@code replicas}. */
    void running(OperatorRuntime runtime, ReplicaCoordinator replicas) {
        this.runtime = runtime;
        this.replicas = replicas;
    }

    /** The replica coordination, or null before the controllers are built. */
    ReplicaCoordinator replicas() {
        return replicas;
    }

    /** Snapshots of every controller. */
    public List<ControllerStatus> controllers() {
        OperatorRuntime running = runtime;
        return running == null ? List.of() : running.statuses();
    }

    /** True while no fatal failure happened. */
    public boolean healthy() {
        ReplicaCoordinator running = replicas;
        return startFailures.isEmpty() && (running == null || running.healthy());
    }

    /** The fatal failures so far, each naming the controller (or the connection, the election, the sharding) and the cause. */
    public List<String> failures() {
        List<String> all = new ArrayList<>(startFailures);
        ReplicaCoordinator coordination = replicas;
        OperatorRuntime running = runtime;
        if (coordination != null) {
            all.addAll(coordination.failures());
            all.addAll(running.failures());
        }
        return all;
    }

    /** See {@link ReplicaCoordinator#ready()}; without controllers, healthy. */
    public boolean ready() {
        ReplicaCoordinator running = replicas;
        return startFailures.isEmpty() && (running == null || running.ready());
    }

    /** See {@link ReplicaCoordinator#readyToServe()}. */
    public boolean readyToServe() {
        ReplicaCoordinator running = replicas;
        return startFailures.isEmpty() && (running == null || running.readyToServe());
    }

    /** See {@link ReplicaCoordinator#started()}. */
    public boolean started() {
        ReplicaCoordinator running = replicas;
        return startFailures.isEmpty() && (running == null || running.started());
    }

    /** True while this replica leads, or always without election. */
    public boolean leader() {
        ReplicaCoordinator running = replicas;
        return running == null || running.leader();
    }

    /** Leader election state for health data: null without election. */
    public String leadership() {
        ReplicaCoordinator running = replicas;
        return running == null ? null : running.leadership();
    }

    /** Sharding state for health data: the shards this replica owns and the members it sees; null without sharding. */
    public String sharding() {
        ReplicaCoordinator running = replicas;
        return running == null ? null : running.sharding();
    }

    /** See {@link OperatorRuntime#connections()}; empty before the controllers are built. */
    public Map<String, String> connections() {
        OperatorRuntime running = runtime;
        return running == null ? Map.of() : running.connections();
    }

    /** Distinct informers (watch subscriptions). */
    public int informerCount() {
        OperatorRuntime running = runtime;
        return running == null ? 0 : running.informerCount();
    }

    /** Relists caused by expired watch history (410 Gone), over all informers. */
    public long relists() {
        OperatorRuntime running = runtime;
        return running == null ? 0 : running.relists();
    }

    /**
     * See {@link dev.mooring.api.Controllers#enqueue}.
     *
     * @throws IllegalStateException naming the failures when the controllers are not running
     */
    public void enqueue(String controllerName, ObjectKey key) {
        OperatorRuntime running = runtime;
        if (running == null) {
            throw new IllegalStateException("Mooring's controllers are not running: " + failures());
        }
        running.enqueue(controllerName, key);
    }
}
