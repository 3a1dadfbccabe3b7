package dev.mooring.engine.pass;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.CustomObject;
import dev.mooring.api.CustomResource;
import io.kubernetes.client.openapi.models.V1Deployment;
import org.junit.jupiter.api.Test;

class ObservedGenerationTest {

    @CustomResource(group = "example.com", version = "v1")
    static class Tracked extends CustomObject {
        Status status;

        static class Status {
            Long observedGeneration;
        }
    }

    @CustomResource(group = "example.com", version = "v1")
    static class Untracked extends CustomObject {
        Status status;

        static class Status {
            String observedGeneration; // not a number: not the runtime's
        }
    }

    @Test
    void onlyACustomResourceWhoseStatusDeclaresANumericObservedGenerationIsKept() {
        assertTrue(ObservedGeneration.declaredBy(Tracked.class));
        assertFalse(ObservedGeneration.declaredBy(Untracked.class));
        assertFalse(ObservedGeneration.declaredBy(V1Deployment.class), "a built-in kind's field belongs to its own controller");
    }
}
