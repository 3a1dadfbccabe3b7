package dev.mooring.it;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** A small parser of the Prometheus text format, for assertions: sample key to value. */
final class Prometheus {

    private Prometheus() {
    }

    /**
     * Parses every sample line ({@code name{label="v",...} value}); comments must be HELP or TYPE
     * lines. Keys are {@link #key} forms; the {@code mp_scope} label is dropped.
     *
     * @throws AssertionError if a line does not parse
     */
    static Map<String, Double> parse(String text) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("#")) {
                if (!line.startsWith("# HELP ") && !line.startsWith("# TYPE ")) {
                    throw new AssertionError("not Prometheus text: " + line);
                }
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                throw new AssertionError("not a sample: " + line);
            }
            String name = brace >= 0 ? line.substring(0, brace) : line.substring(0, space);
            String labels = brace >= 0 ? line.substring(brace + 1, line.lastIndexOf('}')) : "";
            String[] parts = Arrays.stream(labels.split(",")).map(String::trim).filter(label -> !label.isEmpty())
                    .filter(label -> !label.startsWith("mp_scope=")).toArray(String[]::new);
            samples.put(key(name, parts), Double.parseDouble(line.substring(space + 1).trim()));
        }
        return samples;
    }

    /** The type each {@code # TYPE} line gives, by the name it names. */
    static Map<String, String> types(String text) {
        Map<String, String> types = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring("# TYPE ".length()).trim().split(" ");
                types.put(parts[0], parts[1]);
            }
        }
        return types;
    }

    /** The type of a series: of its own name, or of the family the {@code _total} suffix was added to. */
    static String type(Map<String, String> types, String series) {
        return types.getOrDefault(series, types.get(series.replaceFirst("_total$", "")));
    }

    /** The key of a sample: the name and its labels (other than mp_scope), sorted. */
    static String key(String name, String... labels) {
        return name + Arrays.stream(labels).sorted().collect(Collectors.joining(",", "{", "}"));
    }
}
