package dev.mooring.manifests;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;

/** Manifests as YAML documents: block style, keys in the order built, no anchors, no empty fields. */
public final class Yaml {

    private Yaml() {
    }

    /** One {@code ---}-separated document per object. */
    public static String of(List<JsonObject> documents) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndicatorIndent(2);
        options.setIndentWithIndicator(true);
        options.setWidth(120);
        // plain() makes a new map or list for every subtree, and SnakeYAML aliases only the same Java object:
        // identical subtrees are written out each time, never as &anchor / *alias
        org.yaml.snakeyaml.Yaml yaml = new org.yaml.snakeyaml.Yaml(options);
        StringBuilder out = new StringBuilder();
        for (JsonObject document : documents) {
            out.append("---\n").append(yaml.dump(plain(document)));
        }
        return out.toString();
    }

    private static Object plain(JsonValue value) {
        return switch (value.getValueType()) {
            case OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                ((JsonObject) value).forEach((key, item) -> map.put(key, plain(item)));
                yield map;
            }
            case ARRAY -> {
                List<Object> list = new ArrayList<>();
                ((JsonArray) value).forEach(item -> list.add(plain(item)));
                yield list;
            }
            case STRING -> ((JsonString) value).getString();
            case NUMBER -> ((JsonNumber) value).isIntegral() ? (Object) ((JsonNumber) value).longValueExact()
                    : (Object) ((JsonNumber) value).doubleValue();
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case NULL -> null;
        };
    }
}
