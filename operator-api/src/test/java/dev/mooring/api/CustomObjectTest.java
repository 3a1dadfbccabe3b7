package dev.mooring.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

class CustomObjectTest {

    @CustomResource(group = "example.com", version = "v1")
    static class Thing extends CustomObject {
        Spec spec;

        static class Spec {
            String colour;
        }
    }

    @CustomResource(group = "example.com", version = "v2", kind = "Gizmo")
    static class Renamed extends CustomObject {
    }

    static class Unannotated extends CustomObject {
    }

    @Test
    void apiVersionAndKindComeFromTheAnnotation() {
        Thing thing = new Thing();
        assertEquals("example.com/v1", thing.getApiVersion());
        assertEquals("Thing", thing.getKind());
        assertEquals("Gizmo", new Renamed().getKind());
        assertEquals("example.com/v2", new Renamed().getApiVersion());
    }

    @Test
    void clientJavasJsonWritesAndReadsTheInheritedFields() {
        Thing thing = new Thing();
        thing.setMetadata(new V1ObjectMeta().name("t").namespace("ns"));
        thing.spec = new Thing.Spec();
        thing.spec.colour = "red";
        String json = JSON.getGson().toJson(thing);
        JsonObject tree = JsonParser.parseString(json).getAsJsonObject();
        assertEquals("example.com/v1", tree.get("apiVersion").getAsString(), json);
        assertEquals("Thing", tree.get("kind").getAsString(), json);
        assertEquals("t", tree.getAsJsonObject("metadata").get("name").getAsString(), json);

        Thing read = JSON.getGson().fromJson("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Thing\",\"metadata\":{\"name\":\"r\"},"
                + "\"spec\":{\"colour\":\"blue\"}}", Thing.class);
        assertEquals("r", read.getMetadata().getName());
        assertEquals("blue", read.spec.colour);
        assertEquals("Thing", read.getKind());
    }

    @Test
    void aSubclassWithoutTheAnnotationIsRefusedNamingIt() {
        IllegalStateException e = assertThrows(IllegalStateException.class, Unannotated::new);
        assertTrue(e.getMessage().contains("Unannotated") && e.getMessage().contains("@CustomResource"), e.getMessage());
    }
}
