package dev.mooring.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.test.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * In Liberty's JSON logs, the records a pass writes carry its controller, kind, namespace, name
 * and reconcile id as fields of their own ({@code ext_controller}, ...), so that a log system can
 * filter by object or pass; records outside a pass do not.
 */
class JsonLogIT {

    private LibertyProcess server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.command("stop");
        }
    }

    @Test
    void recordsOfAPassCarryItsObjectAsFields() throws Exception {
        KubeHttp http = new KubeHttp(Testbed.client());
        String namespace = "jsonlog-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        http.send("POST", "/api/v1/namespaces", Map.of(), "{\"metadata\":{\"name\":\"" + namespace + "\"}}", "application/json");
        server = LibertyProcess.start("jsonlog", Path.of(System.getProperty("mooring.it.failover.dir"), "jsonlog"),
                Path.of(System.getProperty("mooring.it.ear")), Map.of(), "com.ibm.ws.logging.message.format=json");
        Eventually.await("ready", Duration.ofSeconds(60), () -> server.get("/health/ready"), answer -> answer.status() == 200);

        // the mirror refuses to overwrite a ConfigMap it does not control: a terminal failure, logged by the pass
        String configMaps = "/api/v1/namespaces/" + namespace + "/configmaps";
        http.send("POST", configMaps, Map.of(), "{\"metadata\":{\"name\":\"taken-mirror\"}}", "application/json");
        http.send("POST", configMaps, Map.of(), "{\"metadata\":{\"name\":\"taken\",\"labels\":{\"example.com/mirror\":\"true\"}}}",
                "application/json");
        Eventually.await("the terminal failure logged", Duration.ofSeconds(30), () -> record("taken-mirror exists").isPresent());

        JsonObject failure = record("taken-mirror exists").orElseThrow();
        assertEquals("configmap-mirror", field(failure, "ext_controller"), failure.toString());
        assertEquals("ConfigMap", field(failure, "ext_kind"), failure.toString());
        assertEquals(namespace, field(failure, "ext_namespace"), failure.toString());
        assertEquals("taken", field(failure, "ext_name"), failure.toString());
        assertTrue(field(failure, "ext_reconcile_id").matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
                "the pass's id: " + failure);
        JsonObject started = record("is ready").orElseThrow(); // written at start-up, outside any pass
        assertTrue(!started.has("ext_name") && !started.has("ext_controller"), started.toString());
    }

    private Optional<JsonObject> record(String text) {
        return record(server.log(), text);
    }

    /** The first JSON record of a messages.log whose message contains {@code text}. */
    static Optional<JsonObject> record(Path log, String text) {
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (String line : lines) {
            if (line.startsWith("{")) {
                JsonObject record = JsonParser.parseString(line).getAsJsonObject();
                if (record.has("message") && record.get("message").getAsString().contains(text)) {
                    return Optional.of(record);
                }
            }
        }
        return Optional.empty();
    }

    private static String field(JsonObject record, String name) {
        return record.has(name) ? record.get(name).getAsString() : null;
    }
}
