package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.client.KubernetesException;
import org.junit.jupiter.api.Test;

/** What a failed request's exception says: the server's reason, message and field causes, or why there is no answer. */
class FailureMessagesTest {

    private static final String PATH = "/api/v1/namespaces/ops/configmaps/a";

    @Test
    void aStatusGivesReasonMessageAndEveryFieldCause() {
        KubernetesException invalid = KubeHttp.failure("PUT", PATH, 422, "{\"kind\":\"Status\",\"reason\":\"Invalid\",\"message\":"
                + "\"ConfigMap a is invalid\",\"details\":{\"causes\":[{\"field\":\"data\",\"message\":\"too long\"},{\"message\":"
                + "\"no field\"}]}}", null, false);
        assertEquals(422, invalid.code());
        assertEquals("Invalid", invalid.reason());
        assertEquals("PUT " + PATH + " failed with 422 Invalid: ConfigMap a is invalid [data: too long; no field]", invalid.getMessage());
        assertFalse(invalid.isConflict(), "a 422 with causes is an invalid object, not a lost race");
    }

    @Test
    void aJsonPatchWhoseTestFailedIsALostRace() {
        KubernetesException lost = KubeHttp.failure("PATCH", PATH, 422, "{\"kind\":\"Status\",\"reason\":\"Invalid\",\"message\":"
                + "\"the server rejected our request due to an error in our request\"}", null, true);
        assertTrue(lost.isConflict());
        assertTrue(lost.getMessage().endsWith(" (a JSON Patch test failed: the object changed since it was read)"), lost.getMessage());
        assertFalse(KubeHttp.failure("PATCH", PATH, 422, "{\"kind\":\"Status\",\"reason\":\"Invalid\"}", null, false).isConflict(),
                "a merge patch's 422 is not");
        assertFalse(KubeHttp.failure("PATCH", PATH, 400, "{\"kind\":\"Status\"}", null, true).isConflict(), "nor a 400");
    }

    @Test
    void whatIsNotAStatusIsNotQuotedAndPlainTextIsShortened() {
        String configMap = "{\"kind\":\"ConfigMap\",\"data\":{\"secret\":\"x\"}}";
        KubernetesException object = KubeHttp.failure("GET", PATH, 500, configMap, null, false);
        assertEquals("GET " + PATH + " failed with 500: (an answer of " + configMap.length() + " characters that is not a Status)",
                object.getMessage(), "its content (a Secret's, perhaps) is not repeated");
        KubernetesException text = KubeHttp.failure("GET", PATH, 502, "Bad\tgateway\n" + "x".repeat(300), null, false);
        assertEquals("GET " + PATH + " failed with 502: Bad gateway " + "x".repeat(188) + "...", text.getMessage(),
                "control characters folded, cut at 200 characters");
        assertEquals("GET " + PATH + " failed with 502: " + "y".repeat(200),
                KubeHttp.failure("GET", PATH, 502, "y".repeat(200), null, false).getMessage(), "200 characters are kept whole");
    }

    @Test
    void noAnswerAtAllNamesTheRootCauseAndALongMessageIsCut() {
        KubernetesException refused = KubeHttp.failure("GET", PATH, 0, "", new java.io.IOException("wrapped",
                new java.net.ConnectException("Connection refused")), false);
        assertEquals("GET " + PATH + " failed with 0: no answer from the API server: java.net.ConnectException: Connection refused",
                refused.getMessage());
        String longMessage = "m".repeat(900);
        KubernetesException cut = KubeHttp.failure("GET", PATH, 500, "{\"kind\":\"Status\",\"message\":\"" + longMessage + "\"}", null, false);
        assertEquals("GET " + PATH + " failed with 500: " + "m".repeat(800) + "...", cut.getMessage());
        KubernetesException exactly = KubeHttp.failure("GET", PATH, 500, "{\"kind\":\"Status\",\"message\":\"" + "m".repeat(800) + "\"}",
                null, false);
        assertEquals("GET " + PATH + " failed with 500: " + "m".repeat(800), exactly.getMessage(), "800 characters are kept whole");
    }
}
