package dev.mooring.it;

import jakarta.json.Json;
import jakarta.json.JsonStructure;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain HTTP calls to the Liberty server under test. */
final class Http {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Http() {
    }

    record Answer(int status, String body, String contentType) {
        Answer(int status, String body) {
            this(status, body, "");
        }

        JsonStructure json() {
            return Json.createReader(new StringReader(body)).read();
        }

        /** The health check of this name in a MicroProfile Health answer. */
        jakarta.json.JsonObject check(String name) {
            return json().asJsonObject().getJsonArray("checks").getValuesAs(jakarta.json.JsonObject.class).stream()
                    .filter(check -> check.getString("name").equals(name)).findFirst()
                    .orElseThrow(() -> new AssertionError("no health check " + name + " in " + body));
        }
    }

    /** A POST of an empty body (to see what an endpoint answers to another method than its own). */
    static Answer post(String path) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + System.getProperty("mooring.it.http.port") + path);
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body(), response.headers().firstValue("Content-Type").orElse(""));
    }

    static Answer get(String path) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + System.getProperty("mooring.it.http.port") + path);
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body(), response.headers().firstValue("Content-Type").orElse(""));
    }
}
