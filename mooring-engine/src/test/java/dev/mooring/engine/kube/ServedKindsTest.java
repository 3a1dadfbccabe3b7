package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ServedKindsTest {

    @Test
    void anAggregatedDocumentGivesEachVersionsKindsWithTheirSubresourcesAndLeavesOutIncompleteEntries() {
        Map<String, List<ServedKinds.Served>> served = ServedKinds.aggregated(json(DiscoveryDocuments.AGGREGATED_APIS));

        assertEquals(List.of("apps/v1", "example.com/v2"), List.copyOf(served.keySet()));
        assertEquals(List.of(new ServedKinds.Served("Deployment", "deployments", true, Set.of("scale", "status"))), served.get("apps/v1"));
        assertEquals(List.of(new ServedKinds.Served("Widget", "widgets", false, Set.of())), served.get("example.com/v2"));
        assertEquals(List.of("v1"), List.copyOf(ServedKinds.aggregated(json(DiscoveryDocuments.AGGREGATED_CORE)).keySet()), "the core group has no name");
    }

    @Test
    void aLegacyAnswerIsNotAnAggregatedDocument() {
        assertNull(ServedKinds.aggregated(json("{\"kind\":\"APIGroupList\",\"groups\":[]}")));
        assertNull(ServedKinds.aggregated(json("{\"kind\":\"APIGroupDiscoveryList\"}")));
    }

    @Test
    void aLegacyDocumentAttachesSubresourcesToTheirParent() {
        List<ServedKinds.Served> served = ServedKinds.legacy(json("""
                {"kind":"APIResourceList","groupVersion":"apps/v1","resources":[
                  {"name":"deployments","kind":"Deployment","namespaced":true},
                  {"name":"deployments/scale","kind":"Scale","namespaced":true},
                  {"name":"deployments/status","kind":"Deployment","namespaced":true},
                  {"name":"orphans/status","kind":"Orphan","namespaced":true},
                  {"name":"nokind","namespaced":false}]}"""));

        assertEquals(List.of(new ServedKinds.Served("Deployment", "deployments", true, Set.of("scale", "status"))), served);
    }

    static JsonObject json(String text) {
        return JsonParser.parseString(text).getAsJsonObject();
    }
}
