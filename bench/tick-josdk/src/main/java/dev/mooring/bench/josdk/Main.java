package dev.mooring.bench.josdk;

import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.time.Duration;

/**
 * The peer's process: the Java Operator SDK with its defaults, a no-op controller of Tick, one of
 * ConfigMaps and one of Ticks owning ConfigMaps, each watching the namespace the harness gives (as
 * Mooring's controllers do).
 * With {@code BENCH_LEASE} set, leader election on that Lease in the ticks' namespace, with
 * Mooring's (and client-go's) durations and a unique identity per process.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.out.println("BENCH framework start at " + System.currentTimeMillis());
        String lease = System.getenv("BENCH_LEASE");
        Operator operator = lease == null ? new Operator() : new Operator(o -> o.withLeaderElectionConfiguration(
                new LeaderElectionConfiguration(lease, System.getenv("MOORING_CONTROLLER_TICKS_NAMESPACE"), Duration.ofSeconds(15),
                        Duration.ofSeconds(10), Duration.ofSeconds(2), "josdk-" + ProcessHandle.current().pid() + "-"
                                + java.util.UUID.randomUUID(), null, true)));
        operator.register(new TickReconciler(), o -> o.settingNamespaces(System.getenv("MOORING_CONTROLLER_TICKS_NAMESPACE")));
        operator.register(new ConfigMapReconciler(),
                o -> o.settingNamespaces(System.getenv("MOORING_CONTROLLER_CONFIGMAPS_NAMESPACE")));
        operator.register(new OwnerReconciler(), o -> o.settingNamespaces(System.getenv("MOORING_CONTROLLER_OWNERS_NAMESPACE")));
        System.out.println("BENCH engine start at " + System.currentTimeMillis());
        operator.start(); // returns when the controllers' caches are synced
        System.out.println("BENCH ready at " + System.currentTimeMillis());
    }
}
