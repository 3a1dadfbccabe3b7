package dev.mooring.bench.josdk;

import io.javaoperatorsdk.operator.Operator;

/**
 * The peer's process: the Java Operator SDK with its defaults, a no-op controller of Tick and one
 * of ConfigMaps, each watching the namespace the harness gives (as Mooring's controllers do).
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.out.println("BENCH framework start at " + System.currentTimeMillis());
        Operator operator = new Operator();
        operator.register(new TickReconciler(), o -> o.settingNamespaces(System.getenv("MOORING_CONTROLLER_TICKS_NAMESPACE")));
        operator.register(new ConfigMapReconciler(),
                o -> o.settingNamespaces(System.getenv("MOORING_CONTROLLER_CONFIGMAPS_NAMESPACE")));
        System.out.println("BENCH engine start at " + System.currentTimeMillis());
        operator.start(); // returns when the controllers' caches are synced
        System.out.println("BENCH ready at " + System.currentTimeMillis());
    }
}
