package dev.mooring.bench.josdk;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** The benchmark's kind, as the Java Operator SDK's users write it. */
@Group("bench.mooring.dev")
@Version("v1")
public class Tick extends CustomResource<Tick.Spec, Void> implements Namespaced {

    /** What a tick carries: a value, and when the loader meant to send its last change (epoch ms). */
    public static class Spec {
        public Integer value;
        public Long sent;
    }
}
