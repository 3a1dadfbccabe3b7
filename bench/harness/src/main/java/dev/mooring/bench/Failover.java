package dev.mooring.bench;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Fail-over: per peer, a leader and a standby with leader election on a fresh Lease (15 s
 * duration, 10 s renew deadline, 2 s retry: the same on both), N custom resources; once the
 * leader has reconciled all and the standby has listed them, the leader's JVM gets SIGKILL.
 * Measured from the kill: the new leader's first pass, all N passed, and the LIST requests of
 * the kind the API server counted from the kill to the end.
 */
final class Failover extends Harness {

    Failover(int n, int runs, int seconds, int rate) {
        super(n, runs, seconds, rate);
    }

    @Override
    void run() throws Exception {
        standbyServer = true;
        ticksOnly = true;
        withCluster(() -> {
            try {
                for (int run = 0; run < runs; run++) {
                    for (String peer : run % 2 == 0 ? List.of("JOSDK", "Mooring") : List.of("Mooring", "JOSDK")) {
                        failover(peer, run);
                    }
                    System.out.println("run " + (run + 1) + " of " + runs + " done");
                }
            } catch (Exception | Error e) {
                System.out.println("The benchmark failed; what it measured so far:\n" + results.draft(n, rate));
                throw e;
            }
            String table = results.failoverTable(n, runs);
            publish(table, "results-failover.md");
        });
    }

    private void failover(String name, int run) throws Exception {
        Map<String, String> environment = environment(TICKS, n, EMPTY, 0);
        String lease = "failover-" + name.toLowerCase(java.util.Locale.ROOT) + "-" + run;
        environment.put("BENCH_LEASE", lease);
        environment.put("MOORING_LEADER_ELECTION_ENABLED", "true");
        environment.put("MOORING_LEADER_ELECTION_LEASE_NAME", lease);
        environment.put("MOORING_CONTROLLER_TICKS_SYNC_TIMEOUT", "10m");
        try (Peer leader = launch(name, environment)) {
            leader.await("reconciled tick", PATIENCE);
            long listed = lists("ticks");
            try (Peer standby = name.equals("JOSDK") ? josdk(environment) : mooring(STANDBY, environment)) {
                long end = System.nanoTime() + PATIENCE.toNanos();
                while (lists("ticks") == listed) {
                    if (System.nanoTime() > end) {
                        throw new IllegalStateException(name + "'s standby never listed the custom resources");
                    }
                    TimeUnit.MILLISECONDS.sleep(50);
                }
                // its watch opened and its election saw the leader's renewals
                TimeUnit.SECONDS.sleep(5);
                long listsAtKill = lists("ticks");
                long kill = System.currentTimeMillis();
                leader.kill9();
                long first = standby.awaitEpoch("first tick", PATIENCE) - kill;
                long all = standby.awaitEpoch("reconciled tick", PATIENCE) - kill;
                TimeUnit.SECONDS.sleep(1);
                results.add(name, Results.FAILOVER_FIRST, first);
                results.add(name, Results.FAILOVER_ALL, all);
                results.add(name, Results.FAILOVER_LISTS, lists("ticks") - listsAtKill);
            }
        }
    }
}
