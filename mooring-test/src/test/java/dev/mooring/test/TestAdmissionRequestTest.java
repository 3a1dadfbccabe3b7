package dev.mooring.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.admission.Operation;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestAdmissionRequestTest {

    private static V1ConfigMap configMap(String data) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().name("c").namespace("ns")).data(Map.of("k", data));
    }

    @Test
    void anUpdateCarriesBothSnapshotsAndTheObjectsCoordinates() {
        TestAdmissionRequest<V1ConfigMap> request = TestAdmissionRequest.update(configMap("a"), configMap("b"));
        assertEquals(Operation.UPDATE, request.operation());
        assertEquals("b", request.object().getData().get("k"));
        assertEquals("a", request.oldObject().orElseThrow().getData().get("k"));
        assertEquals("c", request.name());
        assertEquals("ns", request.namespace());
        assertEquals("", request.subresource());
        assertTrue(!request.dryRun() && !request.uid().isEmpty());
    }

    @Test
    void aDeleteHasOnlyTheOldObject() {
        TestAdmissionRequest<V1ConfigMap> request = TestAdmissionRequest.delete(configMap("a"));
        assertThrows(IllegalStateException.class, request::object);
        assertEquals("c", request.name());
    }

    @Test
    void warningsAreKeptAndBlankOnesRefused() {
        TestAdmissionRequest<V1ConfigMap> request = TestAdmissionRequest.create(configMap("a"));
        request.warn("first");
        request.warn("second");
        assertEquals(List.of("first", "second"), request.warnings());
        assertThrows(IllegalArgumentException.class, () -> request.warn(" "));
    }

    @Test
    void cachedReadsAnswerFromTheGivenObjectsOnly() {
        V1Namespace frozen = new V1Namespace().metadata(new V1ObjectMeta().name("frozen").labels(Map.of("f", "true")));
        TestAdmissionRequest<V1ConfigMap> request = TestAdmissionRequest.create(configMap("a")).withCached(V1Namespace.class, frozen);
        assertEquals(frozen, request.cached(V1Namespace.class).get(null, "frozen").orElseThrow());
        assertEquals(List.of(frozen), request.cached(V1Namespace.class).list("any", Map.of("f", "true")));
        assertEquals(List.of(), request.cached(V1Namespace.class).list("any", Map.of("f", "false")));
        IllegalArgumentException notGiven = assertThrows(IllegalArgumentException.class, () -> request.cached(V1ConfigMap.class));
        assertTrue(notGiven.getMessage().contains("V1ConfigMap"), notGiven.getMessage());
        assertThrows(UnsupportedOperationException.class, request::client);
    }

    @Test
    void anObjectWithoutMetadataIsRefusedNamingWhatIsMissing() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TestAdmissionRequest.create(new V1ConfigMap()));
        assertTrue(e.getMessage().contains("metadata"), e.getMessage());
    }
}
