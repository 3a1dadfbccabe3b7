package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Why a Deployment's pods are not available, read from the pods, their Events and their logs as the API server answers. */
class PodDiagnosisTest {

    private static final JsonObject DEPLOYMENT = JsonParser.parseString("{\"metadata\":{\"name\":\"op\",\"namespace\":\"ops\"},"
            + "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"op\",\"tier\":\"web\"}}}}").getAsJsonObject();

    private static String pod(String name, String status) {
        return "{\"metadata\":{\"name\":\"" + name + "\"},\"status\":" + status + "}";
    }

    @Test
    void eachPodsStateWarningsAndLastLogLinesAreTold() {
        ScriptedApi api = new ScriptedApi()
                .answer("GET /api/v1/namespaces/ops/pods", 200, "{\"items\":["
                        + pod("op-1", "{\"containerStatuses\":[{\"name\":\"liberty\",\"ready\":false,\"restartCount\":3,"
                                + "\"state\":{\"waiting\":{\"reason\":\"CrashLoopBackOff\",\"message\":\"back-off 40s\"}}}]}") + ","
                        + pod("op-2", "{\"containerStatuses\":[{\"name\":\"liberty\",\"ready\":true,\"state\":{\"running\":{}}}]}") + ","
                        + pod("op-3", "{\"containerStatuses\":[{\"name\":\"liberty\",\"ready\":false,\"restartCount\":1,"
                                + "\"state\":{\"terminated\":{\"reason\":\"OOMKilled\"}}}]}") + ","
                        + pod("op-4", "{\"phase\":\"Pending\"}") + "]}")
                .answer("GET /api/v1/namespaces/ops/events", 200, "{\"items\":["
                        + "{\"type\":\"Warning\",\"reason\":\"Unhealthy\",\"message\":\"Readiness probe failed: 503\","
                        + "\"lastTimestamp\":\"2030-01-01T00:00:02Z\",\"involvedObject\":{\"name\":\"op-1\"}},"
                        + "{\"type\":\"Warning\",\"reason\":\"BackOff\",\"message\":\"restarting\","
                        + "\"lastTimestamp\":\"2030-01-01T00:00:03Z\",\"involvedObject\":{\"name\":\"op-1\"}},"
                        + "{\"type\":\"Warning\",\"reason\":\"Old\",\"message\":\"older\","
                        + "\"lastTimestamp\":\"2030-01-01T00:00:01Z\",\"involvedObject\":{\"name\":\"op-1\"}},"
                        + "{\"type\":\"Normal\",\"reason\":\"Started\",\"message\":\"fine\","
                        + "\"lastTimestamp\":\"2030-01-01T00:00:04Z\",\"involvedObject\":{\"name\":\"op-1\"}},"
                        + "{\"type\":\"Warning\",\"reason\":\"Other\",\"message\":\"another pod's\",\"involvedObject\":{\"name\":\"op-9\"}}]}")
                .answer("GET /api/v1/namespaces/ops/pods/op-1/log", 200, "starting\u0007\nCWWKF0011I ready? no\n")
                .answer("GET /api/v1/namespaces/ops/pods/op-2/log", 200, "  \n");

        String told = new PodDiagnosis(api.http(), Duration.ofSeconds(1)).of(DEPLOYMENT);

        assertEquals("; pod op-1: liberty waiting (CrashLoopBackOff: back-off 40s), not ready, 3 restarts"
                + "; BackOff: restarting; Unhealthy: Readiness probe failed: 503"
                + "; last log lines: starting | CWWKF0011I ready? no"
                + "; pod op-2: liberty running, ready, 0 restarts"
                + "; pod op-3: liberty terminated (OOMKilled), not ready, 1 restarts", told,
                "the first three pods; the two latest warnings of each, not its normal Events nor another pod's; a log without control characters");
        assertTrue(api.requests.get(0).contains("labelSelector=app=op,tier=web") || api.requests.get(0).contains("labelSelector=tier=web,app=op"),
                api.requests.get(0));
    }

    @Test
    void aDeploymentWithoutPodsSaysSoAndUnreadableEventsOrLogsAreLeftOut() {
        ScriptedApi none = new ScriptedApi().answer("GET /api/v1/namespaces/ops/pods", 200, "{\"items\":[]}");
        assertEquals("; no pod of it exists (is a controller running them?)",
                new PodDiagnosis(none.http(), Duration.ofSeconds(1)).of(DEPLOYMENT));

        ScriptedApi forbidden = new ScriptedApi()
                .answer("GET /api/v1/namespaces/ops/pods", 200, "{\"items\":[" + pod("op-1", "{}") + "]}")
                .answer("GET /api/v1/namespaces/ops/events", 403, "{\"kind\":\"Status\",\"code\":403,\"reason\":\"Forbidden\"}");
        assertEquals("; pod op-1: not started", new PodDiagnosis(forbidden.http(), Duration.ofSeconds(1)).of(DEPLOYMENT),
                "no Events (forbidden), no log (404): the state alone");
    }
}
