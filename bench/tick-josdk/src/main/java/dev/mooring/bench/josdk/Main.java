package dev.mooring.bench.josdk;

import io.javaoperatorsdk.operator.Operator;

/** The peer's process: the Java Operator SDK with its defaults, one no-op controller. BENCH_N objects are expected. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.out.println("BENCH framework start at " + System.currentTimeMillis());
        Operator operator = new Operator();
        operator.register(new TickReconciler(Integer.parseInt(System.getenv().getOrDefault("BENCH_N", "1"))));
        operator.start();
    }
}
