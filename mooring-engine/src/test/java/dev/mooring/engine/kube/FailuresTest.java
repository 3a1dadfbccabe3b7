package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.KubernetesException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which failed requests are worth another attempt and which are the caller's to fix: every boundary of the classification. */
class FailuresTest {

    private static KubernetesException failed(int code) {
        return new KubernetesException(code, "", "scripted " + code, null);
    }

    @Test
    void noAnswerTooManyRequestsAndServerErrorsAreTransient() {
        for (int code : new int[] {0, 429, 500, 503, 504}) {
            assertTrue(Failures.isTransient(failed(code)), Integer.toString(code));
            assertFalse(Failures.isFatal(failed(code)), Integer.toString(code));
        }
        for (int code : new int[] {400, 404, 409, 428, 430, 499}) {
            assertFalse(Failures.isTransient(failed(code)), Integer.toString(code));
        }
    }

    @Test
    void clientErrorsAreFatalButATimeoutAConflictAnExpiryAndTooManyRequests() {
        List<Integer> fatal = List.of(400, 401, 403, 404, 405, 407, 411, 422, 428, 499);
        for (int code : fatal) {
            assertTrue(Failures.isFatal(failed(code)), Integer.toString(code));
        }
        for (int code : new int[] {0, 200, 399, 408, 409, 410, 429, 500}) {
            assertFalse(Failures.isFatal(failed(code)), Integer.toString(code));
        }
    }

    @Test
    void theRootCauseIsTheInnermostOne() {
        java.io.IOException root = new java.io.IOException("reset");
        assertSame(root, Failures.rootCause(new RuntimeException(new IllegalStateException(root))));
        RuntimeException alone = new RuntimeException("alone");
        assertSame(alone, Failures.rootCause(alone));
        assertEquals("reset", Failures.rootCause(new RuntimeException(root)).getMessage());
    }
}
