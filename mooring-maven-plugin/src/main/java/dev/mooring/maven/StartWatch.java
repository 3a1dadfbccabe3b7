package dev.mooring.maven;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Watches a Liberty server that {@code mooring:run} started until the operator has started
 * ({@code /health/started} answers 200), its deployment failed (Liberty's or Mooring's error in
 * {@code messages.log}), the process ended, or the time is up; so that the run's banner is
 * printed only for an operator that runs, and a failure is reported with its cause.
 */
final class StartWatch {

    /** How the start ended. */
    record Outcome(boolean started, String detail) {
    }

    /**
     * Liberty's messages of an application that could not start (CWWKZ0002E: an exception while
     * starting it, CWWKZ0004E: while starting it the first time, CWWKZ0013E: two with one name),
     * and Mooring's of controllers that could not start.
     */
    private static final List<String> FAILURES = List.of("CWWKZ0002E", "CWWKZ0004E", "CWWKZ0013E", "Mooring cannot start");

    private final Path messagesLog;
    private final URI started;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    StartWatch(Path messagesLog, int httpPort) {
        this.messagesLog = messagesLog;
        this.started = URI.create("http://localhost:" + httpPort + "/health/started");
    }

    /** The first failure among these log lines, with the message's text; empty when there is none. */
    static Optional<String> failure(List<String> lines) {
        for (String line : lines) {
            for (String marker : FAILURES) {
                int at = line.indexOf(marker);
                if (at >= 0) {
                    return Optional.of(line.substring(at).strip());
                }
            }
        }
        return Optional.empty();
    }

    /** Waits until one of the ends; polls every half second. */
    Outcome await(BooleanSupplier alive, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            Optional<String> failed = failure(lines());
            if (failed.isPresent()) {
                return new Outcome(false, failed.get());
            }
            if (!alive.getAsBoolean()) {
                return new Outcome(false, "Liberty exited; see " + messagesLog);
            }
            if (status() == 200) {
                return new Outcome(true, "started");
            }
            Thread.sleep(500);
        }
        return new Outcome(false, "the operator had not started after " + timeout.toSeconds() + " s (/health/started answers "
                + status() + "); see " + messagesLog);
    }

    private List<String> lines() {
        try {
            return Files.exists(messagesLog) ? Files.readAllLines(messagesLog, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            return List.of(); // being rotated or written: read again at the next poll
        }
    }

    private int status() throws InterruptedException {
        try {
            return http.send(HttpRequest.newBuilder(started).timeout(Duration.ofSeconds(3)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0; // not listening yet
        }
    }
}
