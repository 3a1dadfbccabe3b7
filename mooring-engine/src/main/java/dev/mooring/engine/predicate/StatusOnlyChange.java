package dev.mooring.engine.predicate;

import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;

/**
 * Drops updates that change only the status, the resourceVersion or the managed fields: such
 * updates (typically the controller's own status writes) do not start a pass. An update to the
 * same resourceVersion (a resync or relist) always passes.
 */
public final class StatusOnlyChange implements UpdatePredicate {

    /** The one instance; it holds no state. */
    public static final StatusOnlyChange IGNORED = new StatusOnlyChange();

    private StatusOnlyChange() {
    }

    @Override
    public boolean test(KubernetesObject oldObject, KubernetesObject newObject) {
        return !onlyStatusChanged(oldObject, newObject);
    }

    /** True when the two versions differ only in status, resourceVersion or managedFields. */
    public static boolean onlyStatusChanged(KubernetesObject oldObject, KubernetesObject newObject) {
        String oldVersion = oldObject.getMetadata().getResourceVersion();
        String newVersion = newObject.getMetadata().getResourceVersion();
        if (oldVersion != null && oldVersion.equals(newVersion)) {
            return false;
        }
        return withoutVolatileParts(oldObject).equals(withoutVolatileParts(newObject));
    }

    private static JsonObject withoutVolatileParts(KubernetesObject object) {
        JsonObject json = JSON.getGson().toJsonTree(object).getAsJsonObject();
        json.remove("status");
        JsonObject metadata = json.getAsJsonObject("metadata");
        if (metadata != null) {
            metadata.remove("resourceVersion");
            metadata.remove("managedFields");
        }
        return json;
    }
}
