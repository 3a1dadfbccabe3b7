package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.mooring.api.client.KubernetesException;
import io.kubernetes.client.openapi.models.V1Namespace;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A document that does not fit its model: the error names it and the problem, never a value of it. */
class ModelsTest {

    private static final ResourceType<V1Namespace> NAMESPACES = new ResourceType<>("", "v1", "Namespace", "namespaces", false,
            V1Namespace.class);
    private static final String MARKER = "U0VDUkVULU1BUktFUg";

    @Test
    void aDecodingFailureCarriesNoValueOfTheDocument() {
        List<String> documents = List.of(
                // a Secret where a Namespace was expected: client-java's message would quote it whole
                "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"leaky\",\"namespace\":\"kube-system\","
                        + "\"uid\":\"u-1\"},\"data\":{\"password\":\"" + MARKER + "\"}}",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"x\",\"generation\":\"" + MARKER + "\"}}",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":[\"" + MARKER + "\"]}}",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"x\",\"creationTimestamp\":\"" + MARKER + "\"}}");
        List<String> expected = List.of("Secret kube-system/leaky uid u-1 cannot be read as V1Namespace: unknown field 'data'",
                "Namespace x cannot be read as V1Namespace: a value of the wrong type or format (NumberFormatException)",
                "Namespace (no name) cannot be read as V1Namespace: field 'name' has the wrong type",
                "Namespace x cannot be read as V1Namespace: a value of the wrong type or format (DateTimeParseException)");
        for (int i = 0; i < documents.size(); i++) {
            JsonObject json = JsonParser.parseString(documents.get(i)).getAsJsonObject();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Models.fromJson(json, NAMESPACES));
            assertEquals(expected.get(i), e.getMessage());
            assertFalse(e.getMessage().contains(MARKER));
            assertEquals(null, e.getCause(), "no cause that carries the original message");
        }
    }

    @Test
    void anErrorAnswerThatIsNotAStatusIsNotQuoted() {
        KubernetesException json = KubeHttp.failure("GET", "/x", 500, "{\"kind\":\"Secret\",\"data\":{\"p\":\"" + MARKER + "\"}}",
                null, false);
        assertFalse(json.getMessage().contains(MARKER), json.getMessage());
        assertTrue(json.getMessage().contains("not a Status"), json.getMessage());
        KubernetesException text = KubeHttp.failure("GET", "/x", 502, "Bad Gateway\n" + "x".repeat(1000), null, false);
        assertTrue(text.getMessage().contains("Bad Gateway x"), text.getMessage());
        assertTrue(text.getMessage().length() < 300, text.getMessage());
        KubernetesException status = KubeHttp.failure("GET", "/x", 404, "{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                + "\"reason\":\"NotFound\",\"message\":\"configmaps \\\"a\\\" not found\"}", null, false);
        assertEquals("GET /x failed with 404 NotFound: configmaps \"a\" not found", status.getMessage());
    }

    /** client-java's JSON reads managedFields as an empty list; a model Mooring decodes carries them. */
    @Test
    void managedFieldsSurviveDecoding() {
        JsonObject json = JsonParser.parseString("{\"metadata\":{\"name\":\"x\",\"managedFields\":[{\"manager\":\"kubectl\","
                + "\"operation\":\"Update\",\"apiVersion\":\"v1\",\"time\":\"2026-01-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\","
                + "\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{}}}}]}}").getAsJsonObject();

        V1Namespace namespace = Models.fromJson(json, NAMESPACES);

        assertEquals(1, namespace.getMetadata().getManagedFields().size());
        assertEquals("kubectl", namespace.getMetadata().getManagedFields().get(0).getManager());
        assertEquals("Update", namespace.getMetadata().getManagedFields().get(0).getOperation());
        assertTrue(String.valueOf(namespace.getMetadata().getManagedFields().get(0).getFieldsV1()).contains("f:labels"));
    }
}
