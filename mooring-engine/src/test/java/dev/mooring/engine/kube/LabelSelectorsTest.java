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

    @Test
    void labelsMatchASelectorAsTheApiServerDecides() {
        V1LabelSelector selector = LabelSelectors.parse("team=blue,env in (prod,staging),zone!=a,example.com/owner,!legacy");
        Map<String, String> matching = Map.of("team", "blue", "env", "prod", "example.com/owner", "x");
        assertTrue(LabelSelectors.matches(selector, matching), "zone absent matches !=, legacy absent matches !legacy");
        for (Map.Entry<String, String> change : Map.of("team", "red", "env", "dev", "zone", "a", "legacy", "yes").entrySet()) {
            Map<String, String> labels = new java.util.HashMap<>(matching);
            labels.put(change.getKey(), change.getValue());
            assertTrue(!LabelSelectors.matches(selector, labels), "with " + change);
        }
        Map<String, String> noOwner = new java.util.HashMap<>(matching);
        noOwner.remove("example.com/owner");
        assertTrue(!LabelSelectors.matches(selector, noOwner), "the owner label must exist");
        assertTrue(!LabelSelectors.matches(selector, null), "no labels: team=blue fails");
        assertTrue(LabelSelectors.matches(LabelSelectors.parse("!legacy"), null), "no labels satisfy a does-not-exist");
    }

    @Test
    void selectorsAreCheckedWhenMadeAndBlankMeansNone() {
        assertEquals(Selectors.NONE, new Selectors(" ", ""));
        assertTrue(Selectors.NONE.isEmpty());
        assertEquals("labels app=web, fields metadata.name!=x", new Selectors("app=web", "metadata.name!=x").describe());
        assertEquals("Invalid field selector 'metadata.name' at 'metadata.name': expected field=value, field==value or field!=value,"
                + " separated by commas", assertThrows(IllegalArgumentException.class, () -> new Selectors(null, "metadata.name"))
                .getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Selectors(null, "status.phase=Running,"));
        assertThrows(IllegalArgumentException.class, () -> new Selectors("team in a,b", null));
        assertEquals("status.phase==Running,metadata.name!=x", new Selectors(null, "status.phase==Running,metadata.name!=x").fields());
    }
}
