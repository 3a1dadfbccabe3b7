package dev.mooring.it.oom;

import dev.mooring.api.Context;
import dev.mooring.api.Controller;
import dev.mooring.api.Reconciler;
import dev.mooring.api.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * For OutOfMemoryIT: a reconciler with a leak. A ConfigMap labelled {@code hoard=true} makes it
 * keep a mebibyte more at every step until the heap is full.
 */
@ApplicationScoped
@Controller(name = "hoarder", namespace = "set-by-config", labelSelector = "hoard=true")
public class Hoarder implements Reconciler<V1ConfigMap> {

    private static final Logger LOG = Logger.getLogger(Hoarder.class.getName());

    private final List<byte[]> kept = new ArrayList<>();

    @Override
    public Result reconcile(V1ConfigMap resource, Context<V1ConfigMap> context) {
        LOG.info("HOARDING for " + resource.getMetadata().getName());
        while (true) {
            kept.add(new byte[1 << 20]);
        }
    }
}
