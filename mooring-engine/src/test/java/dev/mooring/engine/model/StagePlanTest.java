package dev.mooring.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.Case;
import dev.mooring.api.Context;
import dev.mooring.api.Otherwise;
import dev.mooring.api.Result;
import dev.mooring.api.Stage;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StagePlanTest {

    static class Good {
        @Stage(value = "Third", order = 30)
        void third(V1ConfigMap cm) {
        }

        @Stage(value = "First", order = 10)
        Result first(V1ConfigMap cm, Context<V1ConfigMap> context) {
            return Result.done();
        }

        @Stage(value = "Second", order = 20)
        @Case(when = "small", priority = 1)
        void smallCase(V1ConfigMap cm) {
        }

        @Stage(value = "Second", order = 20)
        @Case(when = "large", priority = 5)
        void largeCase(V1ConfigMap cm) {
        }

        @Stage(value = "Second", order = 20)
        @Otherwise
        void neither(V1ConfigMap cm) {
        }

        boolean small(V1ConfigMap cm) {
            return true;
        }

        boolean large(V1ConfigMap cm) {
            return false;
        }
    }

    @Test
    void stagesRunInOrderAndCasesByDescendingPriority() {
        StagePlan plan = StagePlan.of(Good.class, V1ConfigMap.class);
        assertEquals(List.of("First", "Second", "Third"), plan.stages().stream().map(StagePlan.StageSpec::name).toList());
        StagePlan.StageSpec second = plan.stages().get(1);
        assertEquals(List.of("largeCase", "smallCase"), second.cases().stream().map(b -> b.handler().getName()).toList());
        assertEquals("neither", second.otherwise().getName());
        assertEquals(Set.of("First", "Second", "Third", "Ready"), plan.managedConditions());
    }

    static class ReadyStage {
        @Stage(value = "Ready", order = 1)
        void ready(V1ConfigMap cm) {
        }
    }

    static class SameOrder {
        @Stage(value = "A", order = 1)
        void a(V1ConfigMap cm) {
        }

        @Stage(value = "B", order = 1)
        void b(V1ConfigMap cm) {
        }
    }

    static class HandlerAndCases {
        @Stage(value = "A", order = 1)
        void plain(V1ConfigMap cm) {
        }

        @Stage(value = "A", order = 1)
        @Case(when = "yes", priority = 1)
        void branch(V1ConfigMap cm) {
        }

        boolean yes(V1ConfigMap cm) {
            return true;
        }
    }

    static class SamePriority {
        @Stage(value = "A", order = 1)
        @Case(when = "yes", priority = 1)
        void one(V1ConfigMap cm) {
        }

        @Stage(value = "A", order = 1)
        @Case(when = "yes", priority = 1)
        void two(V1ConfigMap cm) {
        }

        boolean yes(V1ConfigMap cm) {
            return true;
        }
    }

    static class TwoHandlers {
        @Stage(value = "A", order = 1)
        void one(V1ConfigMap cm) {
        }

        @Stage(value = "A", order = 1)
        void two(V1ConfigMap cm) {
        }
    }

    static class TwoFallbacks {
        @Stage(value = "A", order = 1)
        @Otherwise
        void one(V1ConfigMap cm) {
        }

        @Stage(value = "A", order = 1)
        @Otherwise
        void two(V1ConfigMap cm) {
        }
    }

    static class MissingPredicate {
        @Stage(value = "A", order = 1)
        @Case(when = "nowhere", priority = 1)
        void one(V1ConfigMap cm) {
        }
    }

    static class PredicateNotBoolean {
        @Stage(value = "A", order = 1)
        @Case(when = "maybe", priority = 1)
        void one(V1ConfigMap cm) {
        }

        String maybe(V1ConfigMap cm) {
            return "yes";
        }
    }

    static class BoxedPredicate {
        @Stage(value = "A", order = 1)
        @Case(when = "maybe", priority = 1)
        void one(V1ConfigMap cm) {
        }

        Boolean maybe(V1ConfigMap cm) {
            return Boolean.TRUE;
        }
    }

    static class WrongSignature {
        @Stage(value = "A", order = 1)
        String wrong(V1ConfigMap cm) {
            return "";
        }
    }

    static class NoStages {
    }

    @Test
    void mistakesFailWithTheirPlace() {
        assertFails(ReadyStage.class, "Ready is reserved");
        assertFails(SameOrder.class, "same order 1, so their order is ambiguous");
        assertFails(HandlerAndCases.class, "a stage has one handler or cases, not both");
        assertFails(SamePriority.class, "have the same priority 1");
        assertFails(TwoFallbacks.class, "only one fallback is allowed");
        assertFails(TwoHandlers.class, "has two handler methods (");
        assertFails(MissingPredicate.class, "@Case(when = \"nowhere\") names no method boolean nowhere(V1ConfigMap)");
        assertFails(WrongSignature.class, "a stage method returns void or Result");
        assertFails(PredicateNotBoolean.class, "PredicateNotBoolean.maybe: the predicate of @Case one must return boolean");
        StagePlan.of(BoxedPredicate.class, V1ConfigMap.class); // Boolean is a boolean too
        assertFails(NoStages.class, "has no @Stage methods");
    }

    private static void assertFails(Class<?> bean, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StagePlan.of(bean, V1ConfigMap.class));
        assertTrue(e.getMessage().contains(expected), "message: " + e.getMessage());
    }
}
