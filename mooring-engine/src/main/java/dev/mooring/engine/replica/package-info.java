/**
 * Several replicas sharing the work of every controller: the keys are split into a fixed number
 * of shards ({@link dev.mooring.engine.replica.ShardMap}), each shard owned by at most one replica
 * at a time through its own coordination.k8s.io/v1 Lease, each replica taking its fair share
 * ({@link dev.mooring.engine.replica.FairShare}) of the replicas that announce themselves with a
 * member Lease ({@link dev.mooring.engine.replica.ShardCoordinator}).
 */
package dev.mooring.engine.replica;
