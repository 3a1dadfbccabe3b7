package dev.mooring.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM's live objects by owner, from {@code jcmd GC.class_histogram}: each class's bytes summed
 * into a group named by its package (three segments; four under {@code com.ibm} and
 * {@code io.openliberty}, where the third names only the vendor's product). Arrays and JDK classes
 * cannot be told apart by owner and keep groups of their own.
 *
 * @param bytes bytes of live objects per group
 */
record HeapHistogram(Map<String, Long> bytes) {

    private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+\\d+\\s+(\\d+)\\s+(\\S+)");

    /** The groups of a histogram as {@code jcmd <pid> GC.class_histogram} prints it. */
    static HeapHistogram parse(String histogram) {
        Map<String, Long> groups = new HashMap<>();
        for (String line : histogram.lines().toList()) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                groups.merge(group(row.group(2)), Long.parseLong(row.group(1)), Long::sum);
            }
        }
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("not a class histogram: " + histogram.lines().limit(3).toList());
        }
        return new HeapHistogram(groups);
    }

    /** The group of a class as the histogram names it ({@code [B}, {@code java.lang.String}, {@code org.jboss.weld.Foo (module)}). */
    static String group(String className) {
        if (className.equals("[B") || className.equals("java.lang.String")) {
            return "strings and byte[]";
        }
        if (className.startsWith("[L") || className.startsWith("[[")) {
            return "object arrays";
        }
        if (className.startsWith("[")) {
            return "other primitive arrays";
        }
        if (className.startsWith("java.util.")) {
            return "java.util (collections)";
        }
        if (className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.")) {
            return "other JDK classes";
        }
        String[] segments = className.split("\\.");
        int depth = className.startsWith("com.ibm.") || className.startsWith("io.openliberty.") ? 4 : 3;
        return String.join(".", java.util.Arrays.copyOf(segments, Math.min(depth, segments.length - 1)));
    }

    /** The groups of {@code with} against this histogram (the same process without something), the largest additions first. */
    String diffTable(HeapHistogram with, String withoutLabel, String withLabel, int rows) {
        Set<String> groups = new TreeSet<>(bytes.keySet());
        groups.addAll(with.bytes.keySet());
        List<String> ordered = new ArrayList<>(groups);
        ordered.sort(Comparator.comparingLong((String group) -> with.of(group) - of(group)).reversed().thenComparing(group -> group));
        StringBuilder text = new StringBuilder("| group | " + withoutLabel + " (MiB) | " + withLabel + " (MiB) | added (MiB) |\n|---|---|---|---|\n");
        long shownAdded = 0;
        for (String group : ordered.subList(0, Math.min(rows, ordered.size()))) {
            long added = with.of(group) - of(group);
            shownAdded += added;
            text.append(row(group, of(group), with.of(group), added));
        }
        long totalAdded = with.total() - total();
        text.append(row("the other groups", 0, 0, totalAdded - shownAdded).replace("| 0.00 | 0.00 |", "| | |"));
        text.append(row("total", total(), with.total(), totalAdded));
        return text.toString();
    }

    /** Bytes of one group; 0 when it holds nothing. */
    long of(String group) {
        return bytes.getOrDefault(group, 0L);
    }

    long total() {
        return bytes.values().stream().mapToLong(Long::longValue).sum();
    }

    private static String row(String group, long without, long with, long added) {
        double mebibyte = 1024 * 1024;
        return String.format(Locale.ROOT, "| %s | %.2f | %.2f | %+.2f |%n", group, without / mebibyte, with / mebibyte, added / mebibyte);
    }
}
