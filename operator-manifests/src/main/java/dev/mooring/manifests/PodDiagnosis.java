package dev.mooring.manifests;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.kube.KubeHttp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Why a Deployment's pods are not available, as {@code kubectl describe} and {@code kubectl logs}
 * would tell: each pod's container state and restarts, its latest warnings (a failed probe's
 * answer, a volume that cannot be mounted) and the last lines of its log. For the message of a
 * rollout that did not complete; every read is bounded by {@link #TIMEOUT} and a part that cannot
 * be read is left out.
 */
final class PodDiagnosis {

    /** The bound of each read; the diagnosis comes after the install's own timeout. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int PODS = 3;
    private static final int WARNINGS = 2;
    private static final int LOG_LINES = 10;
    private static final int LOG_CHARACTERS = 4000;

    private final KubeHttp http;
    private final Duration timeout;

    PodDiagnosis(KubeHttp http, Duration timeout) {
        this.http = http;
        this.timeout = timeout;
    }

    /** What the Deployment's pods say, as {@code "; pod NAME: ..."} parts, or a note that it has none. */
    String of(JsonObject deployment) {
        String namespace = deployment.getAsJsonObject("metadata").get("namespace").getAsString();
        JsonObject matchLabels = deployment.getAsJsonObject("spec").getAsJsonObject("selector").getAsJsonObject("matchLabels");
        String selector = matchLabels == null ? "" : matchLabels.entrySet().stream()
                .map(label -> label.getKey() + "=" + label.getValue().getAsString()).collect(Collectors.joining(","));
        JsonObject pods = http.send("GET", "/api/v1/namespaces/" + namespace + "/pods", Map.of("labelSelector", selector), null, null,
                timeout);
        List<JsonObject> items = new ArrayList<>();
        pods.getAsJsonArray("items").forEach(item -> items.add(item.getAsJsonObject()));
        if (items.isEmpty()) {
            return "; no pod of it exists (is a controller running them?)";
        }
        List<JsonObject> events = events(namespace);
        StringBuilder text = new StringBuilder();
        for (JsonObject pod : items.subList(0, Math.min(PODS, items.size()))) {
            String name = pod.getAsJsonObject("metadata").get("name").getAsString();
            text.append("; pod ").append(name).append(": ").append(state(pod));
            events.stream().filter(event -> name.equals(text(event.getAsJsonObject("involvedObject"), "name"))
                    && "Warning".equals(text(event, "type")))
                    .sorted(Comparator.comparing((JsonObject event) -> text(event, "lastTimestamp")).reversed())
                    .map(event -> text(event, "reason") + ": " + text(event, "message")).distinct().limit(WARNINGS)
                    .forEach(warning -> text.append("; ").append(warning));
            String log = log(namespace, name);
            if (!log.isBlank()) {
                text.append("; last log lines: ").append(String.join(" | ", log.strip().split("\n")));
            }
        }
        return text.toString();
    }

    private static String state(JsonObject pod) {
        JsonObject status = pod.has("status") ? pod.getAsJsonObject("status") : new JsonObject();
        if (!status.has("containerStatuses")) {
            return text(status, "phase").isEmpty() ? "not started" : text(status, "phase");
        }
        List<String> containers = new ArrayList<>();
        for (JsonElement element : status.getAsJsonArray("containerStatuses")) {
            JsonObject container = element.getAsJsonObject();
            JsonObject state = container.getAsJsonObject("state");
            String now = state == null ? "unknown"
                    : state.has("waiting") ? "waiting (" + text(state.getAsJsonObject("waiting"), "reason") + ": "
                            + text(state.getAsJsonObject("waiting"), "message") + ")"
                    : state.has("terminated") ? "terminated (" + text(state.getAsJsonObject("terminated"), "reason") + ")"
                    : "running";
            containers.add(text(container, "name") + " " + now + (container.has("ready") && container.get("ready").getAsBoolean()
                    ? ", ready" : ", not ready") + ", " + (container.has("restartCount") ? container.get("restartCount").getAsInt() : 0)
                    + " restarts");
        }
        return String.join("; ", containers);
    }

    private List<JsonObject> events(String namespace) {
        List<JsonObject> events = new ArrayList<>();
        try {
            http.send("GET", "/api/v1/namespaces/" + namespace + "/events", Map.of("limit", "500"), null, null, timeout)
                    .getAsJsonArray("items").forEach(item -> events.add(item.getAsJsonObject()));
        } catch (KubernetesException e) {
            // events are a help, not a requirement (no permission, not served)
        }
        return events;
    }

    private String log(String namespace, String pod) {
        try {
            String log = http.getText("/api/v1/namespaces/" + namespace + "/pods/" + pod + "/log",
                    Map.of("tailLines", Integer.toString(LOG_LINES)), timeout, LOG_CHARACTERS);
            return log.replaceAll("[\\p{Cntrl}&&[^\n]]", "");
        } catch (KubernetesException e) {
            return "";
        }
    }

    private static String text(JsonObject object, String member) {
        return object != null && object.has(member) && object.get(member).isJsonPrimitive() ? object.get(member).getAsString() : "";
    }
}
