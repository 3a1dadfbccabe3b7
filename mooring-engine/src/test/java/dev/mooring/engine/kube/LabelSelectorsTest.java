package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LabelSelectorsTest {

    @Test
    void everyRequirementOfKubectlSyntax() {
        V1LabelSelector selector = LabelSelectors.parse("team=blue, tier==web,env in (prod, staging),zone notin (a),"
                + "example.com/owner,!legacy,size!=big");
        assertEquals(Map.of("team", "blue", "tier", "web"), selector.getMatchLabels());
        List<V1LabelSelectorRequirement> expressions = selector.getMatchExpressions();
        assertEquals(List.of("env:In:[prod, staging]", "zone:NotIn:[a]", "example.com/owner:Exists:null",
                "legacy:DoesNotExist:null", "size:NotIn:[big]"), expressions.stream()
                .map(e -> e.getKey() + ":" + e.getOperator() + ":" + e.getValues()).toList());
    }

    @Test
    void malformedSelectorsNameTheRequirement() {
        for (String bad : List.of("", "team in a,b", "=blue", "team=bl ue", "env in (,)", "-bad=x", "team=blue,", ",team=blue",
                "team=blue,,tier=web", " ")) {
            IllegalArgumentException problem = assertThrows(IllegalArgumentException.class, () -> LabelSelectors.parse(bad));
            assertTrue(problem.getMessage().contains("label selector"), problem.getMessage());
        }
        assertEquals("Invalid label selector 'team=blue,' at '': an empty requirement (a comma at an end, or two in a row)",
                assertThrows(IllegalArgumentException.class, () -> LabelSelectors.parse("team=blue,")).getMessage());
        assertEquals("The label selector ' ' is empty", assertThrows(IllegalArgumentException.class, () -> LabelSelectors.parse(" "))
                .getMessage());
    }
}
