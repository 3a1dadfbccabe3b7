package dev.mooring.examples.snippets;

import dev.mooring.api.client.ResourceClient;
import dev.mooring.api.patch.Patches;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.json.JsonArray;

/** docs/guide/writing-safely.md, "Guarded writes". */
public final class GuardedWrites {

    private GuardedWrites() {
    }

    /** A narrow change based on a live read: no request when nothing changes, a conflict when someone else wrote first. */
    static V1ConfigMap markObserved(ResourceClient client, V1ConfigMap configMap) {
        return client.mutate(configMap, copy -> copy.getMetadata().putAnnotationsItem("example.com/observed", "true"));
    }

    /** The same with explicit control: diff two copies of one fetched object, skip empty patches. */
    static V1ConfigMap setGreeting(ResourceClient client, V1ConfigMap fetched) {
        V1ConfigMap desired = JSON.getGson().fromJson(JSON.getGson().toJsonTree(fetched), V1ConfigMap.class);
        desired.putDataItem("greeting", "hello");
        JsonArray patch = Patches.diff(fetched, desired); // test ops on uid and resourceVersion first
        return patch.isEmpty() ? fetched : client.patch(fetched, patch);
    }
}
