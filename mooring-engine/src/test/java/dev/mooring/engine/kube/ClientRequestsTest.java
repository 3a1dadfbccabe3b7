package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.api.client.DeleteOptions;
import dev.mooring.api.client.ListOptions;
import dev.mooring.api.client.WriteOptions;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientRequestsTest {

    private static final ResourceType<V1ConfigMap> CONFIG_MAPS = new ResourceType<>("", "v1", "ConfigMap", "configmaps", true,
            V1ConfigMap.class);

    @Test
    void aDeleteSendsOnlyTheOptionsGiven() {
        assertEquals(Map.of(), ClientRequests.deleteQuery(DeleteOptions.DEFAULT));
        assertNull(ClientRequests.deleteBody(DeleteOptions.DEFAULT), "no precondition, no body");
        DeleteOptions all = DeleteOptions.DEFAULT.withPropagation(DeleteOptions.Propagation.FOREGROUND)
                .withGracePeriod(Duration.ZERO).withUid("u-1").asDryRun();
        assertEquals(Map.of("dryRun", "All", "propagationPolicy", "Foreground", "gracePeriodSeconds", "0"), ClientRequests.deleteQuery(all));
        assertEquals("{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\",\"preconditions\":{\"uid\":\"u-1\"}}",
                ClientRequests.deleteBody(all), "the UID alone");
        assertEquals("{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\",\"preconditions\":{\"uid\":\"u-1\",\"resourceVersion\":\"7\"}}",
                ClientRequests.deleteBody(DeleteOptions.guardedBy(new V1ConfigMap().metadata(new V1ObjectMeta().uid("u-1")
                        .resourceVersion("7")))));
    }

    @Test
    void selectorsAndDryRunAreQueryParameters() {
        assertEquals(Map.of(), ClientRequests.selection(ListOptions.DEFAULT));
        assertEquals(Map.of("labelSelector", "app=web", "fieldSelector", "metadata.name=a"),
                ClientRequests.selection(ListOptions.DEFAULT.withLabelSelector("app=web").withFieldSelector("metadata.name=a")));
        assertEquals(Map.of("dryRun", "All"), ClientRequests.dryRun(WriteOptions.DRY_RUN));
        assertEquals(Map.of(), ClientRequests.dryRun(WriteOptions.DEFAULT));
    }

    @Test
    void aWrittenObjectGetsTheResolvedKindOnlyWhereItHasNone() {
        JsonObject filled = JsonParser.parseString(ClientRequests.withKind(new V1ConfigMap().metadata(new V1ObjectMeta().name("a")),
                CONFIG_MAPS)).getAsJsonObject();
        assertEquals("v1", filled.get("apiVersion").getAsString());
        assertEquals("ConfigMap", filled.get("kind").getAsString());
        assertEquals("a", filled.getAsJsonObject("metadata").get("name").getAsString());
        JsonObject kept = JsonParser.parseString(ClientRequests.withKind(new V1ConfigMap().apiVersion("v9").kind("Other")
                .metadata(new V1ObjectMeta().name("a")), CONFIG_MAPS)).getAsJsonObject();
        assertEquals("v9", kept.get("apiVersion").getAsString());
        assertEquals("Other", kept.get("kind").getAsString());
    }
}
