package dev.mooring.manifests;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * Webhook configurations pointed at a server on this machine ({@code https://localhost:<port><path>})
 * and trusting the CA that signed its certificate, so that the local API server calls the webhooks
 * under development (of {@code mooring:run}, or of the test kit) as a cluster would call the pods'.
 */
public final class LocalWebhooks {

    private static final Set<String> KINDS = Set.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration");

    private LocalWebhooks() {
    }

    /**
     * The webhook configurations among {@code objects}, each webhook's {@code clientConfig} a URL
     * on {@code localhost:httpsPort} with the path its service reference named, and
     * {@code caPem} as its bundle.
     */
    public static List<JsonObject> pointedAt(List<JsonObject> objects, int httpsPort, byte[] caPem) {
        String bundle = Base64.getEncoder().encodeToString(caPem);
        List<JsonObject> local = new ArrayList<>();
        for (JsonObject object : objects) {
            if (!object.has("kind") || !KINDS.contains(object.get("kind").getAsString())) {
                continue;
            }
            JsonObject copy = object.deepCopy();
            JsonArray webhooks = copy.has("webhooks") ? copy.getAsJsonArray("webhooks") : new JsonArray();
            for (JsonElement element : webhooks) {
                JsonObject webhook = element.getAsJsonObject();
                JsonObject client = webhook.has("clientConfig") ? webhook.getAsJsonObject("clientConfig") : new JsonObject();
                String path = client.has("service") && client.getAsJsonObject("service").has("path")
                        ? client.getAsJsonObject("service").get("path").getAsString() : "/";
                JsonObject pointed = new JsonObject();
                pointed.addProperty("url", "https://localhost:" + httpsPort + path);
                pointed.addProperty("caBundle", bundle);
                webhook.add("clientConfig", pointed);
            }
            local.add(copy);
        }
        return local;
    }
}
