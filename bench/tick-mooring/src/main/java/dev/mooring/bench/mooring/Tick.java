package dev.mooring.bench.mooring;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;

/** The benchmark's kind, as Mooring's users write it. */
@CustomResource(group = "bench.mooring.dev", version = "v1")
public class Tick extends CustomObject {

    public Spec spec;

    /** What a tick carries: a value, and when the loader meant to send its last change (epoch ms). */
    public static class Spec {
        public Integer value;
        public Long sent;
    }
}
