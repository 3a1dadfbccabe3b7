package dev.mooring.it;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The series of a Prometheus text exposition: each sample's name and labels (not its value), and each family's type. */
record PrometheusSeries(TreeSet<String> series, Map<String, String> types) {

    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    static PrometheusSeries of(String text) {
        TreeSet<String> series = new TreeSet<>();
        Map<String, String> types = new TreeMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.split(" ");
                types.put(parts[2], parts[3]);
            } else if (!line.isBlank() && !line.startsWith("#")) {
                int brace = line.indexOf('{');
                int space = line.indexOf(' ');
                String name = brace >= 0 && brace < space ? line.substring(0, brace) : line.substring(0, space);
                Map<String, String> labels = new TreeMap<>();
                if (brace >= 0 && brace < space) {
                    Matcher label = LABEL.matcher(line.substring(brace, line.lastIndexOf('}')));
                    while (label.find()) {
                        labels.put(label.group(1), label.group(2));
                    }
                }
                series.add(name + labels);
            }
        }
        return new PrometheusSeries(series, types);
    }
}
