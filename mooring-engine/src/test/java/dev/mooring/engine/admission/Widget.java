package dev.mooring.engine.admission;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;

/** A custom resource model for the tests: only {@code spec.size} and {@code spec.color} are declared. */
@CustomResource(group = "example.com", version = "v1")
public class Widget extends CustomObject {

    Spec spec;

    /** The declared spec fields. */
    public static class Spec {
        public Integer size;
        public String color;
    }

}
