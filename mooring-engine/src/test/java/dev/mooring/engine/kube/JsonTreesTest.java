package dev.mooring.engine.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonParser;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** A Gson tree as JSON-P, node by node: the same document as printing and parsing it would give. */
class JsonTreesTest {

    @Test
    void everyKindOfNodeBecomesTheSameValue() {
        String document = "{\"s\":\"text\",\"t\":true,\"f\":false,\"n\":null,\"i\":3,\"d\":2.50,\"big\":12345678901234567890,"
                + "\"a\":[1,\"x\",{\"k\":[]}],\"o\":{}}";
        JsonValue converted = JsonTrees.toJsonP(JsonParser.parseString(document));
        assertEquals(Json.createReader(new StringReader(document)).readValue(), converted);
        assertEquals("2.50", converted.asJsonObject().getJsonNumber("d").toString(), "the number's own text");
        assertEquals(JsonValue.NULL, JsonTrees.toJsonP(null), "a missing element");
    }
}
