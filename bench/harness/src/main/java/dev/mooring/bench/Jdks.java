package dev.mooring.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The start-up measures and the idle heap of both peers on each JDK, alternating the JDKs'
 * order and the peers' order per run: what moving the image to another Java costs or saves.
 */
final class Jdks extends Harness {

    Jdks(int n, int runs, int seconds, int rate) {
        super(n, runs, seconds, rate);
    }

    @Override
    void run() throws Exception {
        List<Path> homes = jdks();
        if (homes.size() < 2) {
            throw new IllegalStateException("bench jdks needs two JDKs or more; found " + homes
                    + " (name their homes in -Dbench.jdks, separated by ':')");
        }
        List<String> versions = homes.stream().map(Jdks::version).toList();
        withCluster(() -> {
            for (int run = 0; run < runs; run++) {
                List<Path> order = new ArrayList<>(homes);
                if (run % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                for (Path home : order) {
                    jdk = home;
                    for (String peer : run % 2 == 0 ? List.of("JOSDK", "Mooring") : List.of("Mooring", "JOSDK")) {
                        String label = peer + " " + version(home);
                        try (Peer started = launch(peer, environment(TICKS, n, EMPTY, 0))) {
                            recordStart(started, label);
                        }
                        idle(peer, label);
                    }
                }
                System.out.println("run " + (run + 1) + " of " + runs + " done");
            }
            jdk = Path.of(System.getProperty("java.home"));
            String table = results.jdksTable(n, runs, versions);
            publish(table, "results-jdks.md");
        });
    }

    /** The JDK homes of {@code -Dbench.jdks}, or this JVM's and every {@code /usr/lib/jvm/temurin-*} home. */
    private static List<Path> jdks() throws IOException {
        String named = System.getProperty("bench.jdks", "").trim();
        if (!named.isEmpty()) {
            return java.util.Arrays.stream(named.split(":")).map(Path::of).toList();
        }
        List<Path> homes = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"))));
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (var entries = Files.list(jvms)) {
                entries.filter(home -> home.getFileName().toString().startsWith("temurin-") && Files.isExecutable(home.resolve("bin/java")))
                        .sorted().forEach(homes::add);
            }
        }
        return homes;
    }

    /** The feature release of the JDK at {@code home} ("17", "25"), from its {@code release} file. */
    static String version(Path home) {
        try {
            for (String line : Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return version.contains(".") ? version.substring(0, version.indexOf('.')) : version;
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read the release file of " + home, e);
        }
        throw new IllegalStateException(home + "/release names no JAVA_VERSION");
    }
}
