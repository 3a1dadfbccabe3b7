package dev.mooring.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The folder's webhook configurations, pointed at the server on this machine; the other objects left out. */
class LocalWebhooksTest {

    @Test
    void eachWebhookCallsLocalhostOnThePortWithItsPathAndTheCa() {
        JsonObject validating = JsonParser.parseString("{\"apiVersion\":\"admissionregistration.k8s.io/v1\","
                + "\"kind\":\"ValidatingWebhookConfiguration\",\"metadata\":{\"name\":\"greetings.operators.svc\"},\"webhooks\":["
                + "{\"name\":\"a.example.com\",\"clientConfig\":{\"service\":{\"name\":\"greetings\",\"namespace\":\"operators\","
                + "\"port\":443,\"path\":\"/validate/example/com/v1/greetings/language\"}},\"failurePolicy\":\"Fail\"}]}")
                .getAsJsonObject();
        JsonObject deployment = JsonParser.parseString("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"x\"}}")
                .getAsJsonObject();
        byte[] ca = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".getBytes(StandardCharsets.US_ASCII);

        List<JsonObject> local = LocalWebhooks.pointedAt(List.of(deployment, validating), 19443, ca);

        assertEquals(1, local.size(), "only the webhook configurations");
        JsonObject webhook = local.get(0).getAsJsonArray("webhooks").get(0).getAsJsonObject();
        assertEquals("{\"url\":\"https://localhost:19443/validate/example/com/v1/greetings/language\",\"caBundle\":\""
                + Base64.getEncoder().encodeToString(ca) + "\"}", webhook.get("clientConfig").toString());
        assertEquals("Fail", webhook.get("failurePolicy").getAsString(), "everything else as generated");
        assertEquals("greetings.operators.svc", local.get(0).getAsJsonObject("metadata").get("name").getAsString());
        assertEquals("greetings", validating.getAsJsonArray("webhooks").get(0).getAsJsonObject().getAsJsonObject("clientConfig")
                .getAsJsonObject("service").get("name").getAsString(), "the folder's object is not changed");
    }
}
