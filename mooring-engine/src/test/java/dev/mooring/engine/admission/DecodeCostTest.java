package dev.mooring.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cost of decoding the worst shapes the limits allow, stated as a ratio to the cost of a plain
 * echo of the same bytes (read the body, write it out, as a bare REST resource does), both on this
 * thread's CPU time. Before the decoder reused one JSON-P provider, a review of empty strings cost
 * tens of seconds (a service-loader scan per value), thousands of times the echo.
 */
class DecodeCostTest {

    /**
     * The most a decode may cost, in echoes of the same bytes. A decode builds a tree of up to a
     * million values where an echo copies bytes, so it costs more: here (HotSpot 17, 2 cores) from
     * 8 echoes for long escaped strings to about 700 for the deepest nesting. What this bounds is
     * the constant per value: the provider lookup per value cost about 80,000 echoes.
     */
    static final double MAX_ECHOES = 2000;

    static final String ACCEPT = "/validate/example/com/v1/widgets/accept";

    /** A validator that admits every Widget: what is measured is the decoding. */
    static class Accepting {
        @dev.mooring.api.admission.Validating(timeoutSeconds = 30)
        void accept(dev.mooring.api.admission.AdmissionRequest<Widget> request) {
        }
    }

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void everyWorstCaseShapeDecodesWithinABoundedMultipleOfAnEcho() throws Exception {
        AdmissionDispatcher dispatcher = AdmissionDispatcher.builder(AdmissionRoutes.of(Accepting.class),
                bean -> new Accepting(), executor, new AdmissionDispatcherTest.NoReads())
                .budget(new DecodeBudget(4, java.time.Duration.ofMinutes(5), System::nanoTime, System::nanoTime)).build();
        Map<String, String> report = new LinkedHashMap<>();
        boolean within = true;
        for (Map.Entry<String, byte[]> shape : WorstCaseReviews.all("default").entrySet()) {
            byte[] body = shape.getValue();
            long decode = Long.MAX_VALUE;
            long echo = Long.MAX_VALUE;
            for (int round = 0; round < 3; round++) {
                long start = threads.getCurrentThreadCpuTime();
                AdmissionDispatcher.Answer answer = dispatcher.handle("POST", ACCEPT, "application/json",
                        new ByteArrayInputStream(body), true);
                decode = Math.min(decode, threads.getCurrentThreadCpuTime() - start);
                assertEquals(200, answer.status(), shape.getKey() + ": " + answer.body());
                start = threads.getCurrentThreadCpuTime();
                byte[] echoed = echo(new ByteArrayInputStream(body));
                echo = Math.min(echo, Math.max(1, threads.getCurrentThreadCpuTime() - start));
                assertEquals(body.length, echoed.length);
            }
            double ratio = (double) decode / echo;
            within &= ratio <= MAX_ECHOES;
            report.put(shape.getKey(), String.format("%d bytes: decode %.1f ms, echo %.2f ms, %.0fx", body.length, decode / 1e6,
                    echo / 1e6, ratio));
        }
        report.forEach((shape, line) -> System.out.println("[decode cost] " + shape + ": " + line));
        assertTrue(within, "a shape costs more than " + MAX_ECHOES + " echoes: " + report);
    }

    /** What a bare echo resource does with a body: read it whole, write it out. */
    static byte[] echo(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        out.writeTo(response);
        return response.toByteArray();
    }
}
