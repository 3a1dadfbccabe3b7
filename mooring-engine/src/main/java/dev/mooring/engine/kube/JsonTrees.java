package dev.mooring.engine.kube;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Client-java's models become Gson trees without text ({@code JSON.getGson().toJsonTree}); patches
 * are JSON-P. This turns one into the other node by node, so that a part of an object (a
 * status) can be patched without printing and parsing the whole object.
 */
public final class JsonTrees {

    private JsonTrees() {
    }

    /** The same document as JSON-P; a missing or JSON null element is {@link JsonValue#NULL}. */
    public static JsonValue toJsonP(JsonElement element) {
        if (element == null || element.isJsonNull()) {
            return JsonValue.NULL;
        }
        if (element.isJsonObject()) {
            JsonObjectBuilder object = Json.createObjectBuilder();
            for (Map.Entry<String, JsonElement> member : ((JsonObject) element).entrySet()) {
                object.add(member.getKey(), toJsonP(member.getValue()));
            }
            return object.build();
        }
        if (element.isJsonArray()) {
            JsonArrayBuilder array = Json.createArrayBuilder();
            for (JsonElement item : (JsonArray) element) {
                array.add(toJsonP(item));
            }
            return array.build();
        }
        JsonPrimitive primitive = element.getAsJsonPrimitive();
        if (primitive.isBoolean()) {
            return primitive.getAsBoolean() ? JsonValue.TRUE : JsonValue.FALSE;
        }
        if (primitive.isNumber()) {
            // the number's own text: the same value as a printed and parsed document gives
            return Json.createValue(new BigDecimal(primitive.getAsString()));
        }
        return Json.createValue(primitive.getAsString());
    }
}
