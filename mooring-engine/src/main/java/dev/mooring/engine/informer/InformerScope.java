package dev.mooring.engine.informer;

import dev.mooring.engine.kube.ResourceType;
import java.util.HashMap;
import java.util.Map;

/**
 * What one informer watches: a kind, a namespace (null for all, and always null for a
 * cluster-scoped kind) and optional label and field selectors (null when none; blank means none).
 */
record InformerScope(ResourceType<?> type, String namespace, String labelSelector, String fieldSelector) {

    InformerScope {
        namespace = type.namespaced() ? namespace : null;
        labelSelector = labelSelector == null || labelSelector.isBlank() ? null : labelSelector;
        fieldSelector = fieldSelector == null || fieldSelector.isBlank() ? null : fieldSelector;
    }

    /** The collection path lists and watches of this scope go to. */
    String path() {
        return type.collectionPath(namespace);
    }

    /** A new list or watch query holding this scope's selectors, for the caller to add to. */
    Map<String, String> query() {
        Map<String, String> query = new HashMap<>();
        if (labelSelector != null) {
            query.put("labelSelector", labelSelector);
        }
        if (fieldSelector != null) {
            query.put("fieldSelector", fieldSelector);
        }
        return query;
    }

    /** For logs: kind, scope and selectors. */
    String describe() {
        return type.kind() + (namespace == null ? " (all namespaces)" : " in " + namespace)
                + (labelSelector == null ? "" : " with labels " + labelSelector)
                + (fieldSelector == null ? "" : " with fields " + fieldSelector)
                + (type.isMetadataOnly() ? " (metadata only)" : "");
    }
}
