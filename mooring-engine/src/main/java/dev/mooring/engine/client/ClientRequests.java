package dev.mooring.engine.client;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.api.client.DeleteOptions;
import dev.mooring.api.client.ListOptions;
import dev.mooring.api.client.WriteOptions;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import java.util.HashMap;
import java.util.Map;

/** The query parameters and bodies of the live client's requests, as the API server reads them. */
final class ClientRequests {

    private ClientRequests() {
    }

    static Map<String, String> selection(ListOptions options) {
        Map<String, String> query = new HashMap<>();
        if (options.labelSelector() != null) {
            query.put("labelSelector", options.labelSelector());
        }
        if (options.fieldSelector() != null) {
            query.put("fieldSelector", options.fieldSelector());
        }
        return query;
    }

    /** The object's JSON with {@code apiVersion} and {@code kind} of the resolved kind where the object has none. */
    static String withKind(KubernetesObject object, ResourceType<?> type) {
        JsonObject json = JsonParser.parseString(Models.toJson(object)).getAsJsonObject();
        if (!json.has("apiVersion") || json.get("apiVersion").isJsonNull()) {
            json.addProperty("apiVersion", type.apiVersion());
        }
        if (!json.has("kind") || json.get("kind").isJsonNull()) {
            json.addProperty("kind", type.kind());
        }
        return json.toString();
    }

    static Map<String, String> dryRun(WriteOptions options) {
        return options.dryRun() ? Map.of("dryRun", "All") : Map.of();
    }

    /** The body of a server-side apply: the desired fields only ({@link Children#desiredJson}), with the resolved kind where the object has none. */
    static String applyBody(KubernetesObject object, ResourceType<?> type) {
        jakarta.json.JsonObject desired = Children.desiredJson(object).asJsonObject();
        jakarta.json.JsonObjectBuilder body = jakarta.json.Json.createObjectBuilder(desired);
        if (!desired.containsKey("apiVersion") || desired.isNull("apiVersion")) {
            body.add("apiVersion", type.apiVersion());
        }
        if (!desired.containsKey("kind") || desired.isNull("kind")) {
            body.add("kind", type.kind());
        }
        return body.build().toString();
    }

    /** {@code dryRun}, {@code propagationPolicy} and {@code gracePeriodSeconds} of a delete, as given. */
    static Map<String, String> deleteQuery(DeleteOptions options) {
        Map<String, String> query = new HashMap<>();
        if (options.dryRun()) {
            query.put("dryRun", "All");
        }
        if (options.propagation() != null) {
            query.put("propagationPolicy", options.propagation().wire());
        }
        if (options.gracePeriod() != null) {
            query.put("gracePeriodSeconds", Long.toString(options.gracePeriod().toSeconds()));
        }
        return query;
    }

    /** A {@code DeleteOptions} body with the preconditions given (only those), or null when there are none. */
    static String deleteBody(DeleteOptions options) {
        if (options.uid() == null && options.resourceVersion() == null) {
            return null;
        }
        JsonObject json = new JsonObject();
        json.addProperty("apiVersion", "v1");
        json.addProperty("kind", "DeleteOptions");
        JsonObject preconditions = new JsonObject();
        if (options.uid() != null) {
            preconditions.addProperty("uid", options.uid());
        }
        if (options.resourceVersion() != null) {
            preconditions.addProperty("resourceVersion", options.resourceVersion());
        }
        json.add("preconditions", preconditions);
        return json.toString();
    }
}
