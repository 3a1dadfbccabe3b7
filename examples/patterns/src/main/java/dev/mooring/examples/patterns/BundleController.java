package dev.mooring.examples.patterns;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.TreeSet;

/**
 * The child-set pattern: a variable number of children from a list in the spec. Each entry of a
 * Bundle is ensured as a ConfigMap it controls; the ConfigMaps it controls that no entry names
 * any more are pruned, each with a delete guarded by its UID and resourceVersion (a child
 * replaced or changed since the cache saw it is left for the next pass). Deleting the Bundle
 * leaves its children to Kubernetes' garbage collector through their owner references.
 */
@ApplicationScoped
@Controller(name = "bundles", owns = V1ConfigMap.class)
public class BundleController implements Reconciler<Bundle> {

    @Override
    public Result reconcile(Bundle bundle, Context<Bundle> context) {
        Map<String, String> entries = bundle.getSpec() == null || bundle.getSpec().entries == null ? Map.of() : bundle.getSpec().entries;
        TreeSet<String> keep = new TreeSet<>();
        for (Map.Entry<String, String> entry : entries.entrySet()) {
            String name = childName(bundle, entry.getKey());
            keep.add(name);
            context.ensure(new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta().name(name))
                    .data(Map.of("value", entry.getValue())));
        }
        int pruned = context.prune(V1ConfigMap.class, keep).size();
        context.condition("Ready", "True", "ChildrenInSync", keep.size() + " ConfigMap(s)"
                + (pruned == 0 ? "" : ", " + pruned + " pruned in this pass"));
        return Result.done();
    }

    /** The child of one entry: {@code <bundle>-<entry>}. */
    static String childName(Bundle bundle, String entry) {
        return bundle.getMetadata().getName() + "-" + entry;
    }
}
