package dev.mooring.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mooring:run's start watch: a failed deployment is reported with its cause, never as started. */
class StartWatchTest {

    @TempDir
    Path dir;

    @Test
    void libertysAndMooringsFailuresAreFoundWithTheirText() {
        assertEquals(Optional.of("CWWKZ0002E: An exception occurred while starting the application greeting-operator. The exception"
                + " message was: java.lang.NoClassDefFoundError: com/example/Missing"), StartWatch.failure(List.of(
                "[12/2/26, 13:30:01:000 UTC] 0000002a com.ibm.ws.app.manager.AppMessageHelper  A CWWKZ0018I: Starting application",
                "[12/2/26, 13:30:02:000 UTC] 0000002a com.ibm.ws.app.manager.AppMessageHelper  E CWWKZ0002E: An exception occurred"
                        + " while starting the application greeting-operator. The exception message was:"
                        + " java.lang.NoClassDefFoundError: com/example/Missing")));
        assertEquals(Optional.of("Mooring cannot start its controllers: the API server does not serve kind Widget"),
                StartWatch.failure(List.of("[...] E Mooring cannot start its controllers: the API server does not serve kind Widget")));
        assertEquals(Optional.empty(), StartWatch.failure(List.of("A CWWKZ0001I: Application greeting-operator started in 2.1 seconds.")));
    }

    @Test
    void anOperatorWhoseStartedCheckAnswers200HasStarted() throws Exception {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        int[] asked = {0};
        server.createContext("/health/started", exchange -> {
            // DOWN twice (the controllers syncing), then UP
            int status = ++asked[0] < 3 ? 503 : 200;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        try {
            StartWatch.Outcome outcome = new StartWatch(dir.resolve("messages.log"), server.getAddress().getPort())
                    .await(() -> true, Duration.ofSeconds(20));
            assertTrue(outcome.started(), outcome.detail());
            assertEquals(3, asked[0]);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aFailureInTheLogOrAnEndedProcessEndsTheWatchWithoutTheBanner() throws Exception {
        int closedPort = dev.mooring.stack.FreePorts.pick(1)[0]; // nothing listens: /health/started never answers
        Path log = dir.resolve("messages.log");
        Files.writeString(log, "E CWWKZ0004E: An exception occurred while starting the application x.\n");
        StartWatch.Outcome failed = new StartWatch(log, closedPort).await(() -> true, Duration.ofSeconds(10));
        assertFalse(failed.started());
        assertTrue(failed.detail().startsWith("CWWKZ0004E"), failed.detail());

        StartWatch.Outcome exited = new StartWatch(dir.resolve("none.log"), closedPort).await(() -> false, Duration.ofSeconds(10));
        assertFalse(exited.started());
        assertTrue(exited.detail().startsWith("Liberty exited"), exited.detail());

        StartWatch.Outcome late = new StartWatch(dir.resolve("none.log"), closedPort).await(() -> true, Duration.ofMillis(600));
        assertFalse(late.started());
        assertTrue(late.detail().contains("had not started after"), late.detail());
    }
}
