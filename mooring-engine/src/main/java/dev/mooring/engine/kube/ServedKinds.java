package dev.mooring.engine.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What discovery says an API server serves, by {@code apiVersion}, in the server's order: read
 * from an aggregated discovery document ({@code apidiscovery.k8s.io/v2}
 * {@code APIGroupDiscoveryList}, one for {@code /api} and one for {@code /apis}) or from a legacy
 * group-version document ({@code APIResourceList}). Entries without a kind, resource or scope are
 * left out.
 */
final class ServedKinds {

    /** One served kind. */
    record Served(String kind, String plural, boolean namespaced, Set<String> subresources) {
    }

    private ServedKinds() {
    }

    /**
     * The kinds of an aggregated discovery document, by apiVersion; null when {@code document} is
     * not an {@code APIGroupDiscoveryList} (the server ignored the Accept header).
     */
    static Map<String, List<Served>> aggregated(JsonObject document) {
        if (!"APIGroupDiscoveryList".equals(text(document, "kind")) || !(document.get("items") != null
                && document.get("items").isJsonArray())) {
            return null;
        }
        Map<String, List<Served>> served = new LinkedHashMap<>();
        for (JsonElement item : document.getAsJsonArray("items")) {
            JsonObject group = item.getAsJsonObject();
            String name = group.get("metadata") instanceof JsonObject metadata ? text(metadata, "name") : null;
            String prefix = name == null || name.isEmpty() ? "" : name + "/";
            for (JsonObject version : objects(group, "versions")) {
                List<Served> kinds = new ArrayList<>();
                for (JsonObject resource : objects(version, "resources")) {
                    String kind = resource.get("responseKind") instanceof JsonObject response ? text(response, "kind") : null;
                    String plural = text(resource, "resource");
                    String scope = text(resource, "scope");
                    if (kind == null || kind.isEmpty() || plural == null || scope == null) {
                        continue;
                    }
                    Set<String> subresources = new TreeSet<>();
                    for (JsonObject subresource : objects(resource, "subresources")) {
                        String sub = text(subresource, "subresource");
                        if (sub != null) {
                            subresources.add(sub);
                        }
                    }
                    kinds.add(new Served(kind, plural, "Namespaced".equals(scope), Collections.unmodifiableSet(subresources)));
                }
                String versionName = text(version, "version");
                if (versionName != null) {
                    served.put(prefix + versionName, kinds);
                }
            }
        }
        return served;
    }

    /** The kinds of a legacy group-version document ({@code /api/v1}, {@code /apis/apps/v1}), subresources attached to their parent. */
    static List<Served> legacy(JsonObject document) {
        Map<String, JsonObject> parents = new LinkedHashMap<>();
        Map<String, Set<String>> subresources = new LinkedHashMap<>();
        for (JsonObject resource : objects(document, "resources")) {
            String name = text(resource, "name");
            if (name == null) {
                continue;
            }
            int slash = name.indexOf('/');
            if (slash < 0) {
                parents.put(name, resource);
            } else {
                subresources.computeIfAbsent(name.substring(0, slash), parent -> new TreeSet<>()).add(name.substring(slash + 1));
            }
        }
        List<Served> served = new ArrayList<>();
        parents.forEach((plural, resource) -> {
            String kind = text(resource, "kind");
            if (kind != null && !kind.isEmpty() && resource.has("namespaced")) {
                served.add(new Served(kind, plural, resource.get("namespaced").getAsBoolean(),
                        Collections.unmodifiableSet(subresources.getOrDefault(plural, Set.of()))));
            }
        });
        return served;
    }

    private static List<JsonObject> objects(JsonObject parent, String member) {
        List<JsonObject> objects = new ArrayList<>();
        if (parent.get(member) != null && parent.get(member).isJsonArray()) {
            for (JsonElement element : parent.getAsJsonArray(member)) {
                if (element.isJsonObject()) {
                    objects.add(element.getAsJsonObject());
                }
            }
        }
        return objects;
    }

    private static String text(JsonObject object, String member) {
        JsonElement value = object.get(member);
        return value == null || !value.isJsonPrimitive() ? null : value.getAsString();
    }
}
