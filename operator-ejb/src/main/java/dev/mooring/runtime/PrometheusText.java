package dev.mooring.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Gauge;
import org.eclipse.microprofile.metrics.Histogram;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.Metric;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.Snapshot;
import org.eclipse.microprofile.metrics.Timer;

/**
 * MicroProfile Metrics in the Prometheus text format (version 0.0.4), named as Liberty's own
 * {@code /metrics} names them, for the endpoint that checks its callers ({@code /mooring/metrics}):
 * Liberty's endpoint cannot be guarded per caller, so Mooring writes the same series itself.
 *
 * <p>Written by hand because the MicroProfile Metrics API has no exporter and Liberty's is not
 * visible to applications. The rules: a name's characters other than letters, digits and
 * {@code _} become {@code _}; a unit adds its suffix, time in {@code _seconds} and data in
 * {@code _bytes} with the value converted; a counter ends in {@code _total}; a timer (in
 * seconds) or a histogram writes its percentiles ({@code quantile}), {@code _count} and
 * {@code _sum}, with buckets ({@code _bucket} cumulative up to {@code +Inf}) a histogram, else a
 * summary, and a {@code _max} gauge;
 * every series carries {@code mp_scope}. Series of one name are written together, whatever
 * their scope.
 */
final class PrometheusText {

    /** The content type of the format. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** The metrics of one registry. */
    record Scope(String name, Map<MetricID, Metric> metrics, Function<String, Metadata> metadata) {
    }

    /** One sample line: name suffix, extra label, value. */
    private record Sample(String suffix, String label, String labelValue, double value) {
    }

    /** The samples of one family: its name, type, help, and labelled samples. */
    private static final class Family {
        final String name;
        final String type;
        final String help;
        final List<String> lines = new ArrayList<>();

        Family(String name, String type, String help) {
            this.name = name;
            this.type = type;
            this.help = help;
        }
    }

    private final Map<String, Family> families = new TreeMap<>();

    private PrometheusText() {
    }

    /** The text of these registries. */
    static String of(List<Scope> scopes) {
        PrometheusText text = new PrometheusText();
        for (Scope scope : scopes) {
            for (Map.Entry<MetricID, Metric> entry : scope.metrics().entrySet()) {
                Metadata metadata = scope.metadata().apply(entry.getKey().getName());
                text.add(scope.name(), entry.getKey(), metadata, entry.getValue());
            }
        }
        StringBuilder out = new StringBuilder();
        for (Family family : text.families.values()) {
            out.append("# HELP ").append(family.name).append(' ').append(escapeHelp(family.help)).append('\n');
            out.append("# TYPE ").append(family.name).append(' ').append(family.type).append('\n');
            family.lines.forEach(line -> out.append(line).append('\n'));
        }
        return out.toString();
    }

    private void add(String scope, MetricID id, Metadata metadata, Metric metric) {
        String unit = metadata == null ? "none" : metadata.unit().orElse("none");
        String help = metadata == null ? "" : metadata.description().orElse("");
        String name = sanitize(id.getName());
        Map<String, String> labels = new TreeMap<>(id.getTags());
        labels.put("mp_scope", scope);
        if (metric instanceof Counter counter) {
            String base = name + suffix(unit);
            String family = base.endsWith("_total") ? base : base + "_total";
            sample(family, "counter", help, labels, new Sample("", null, null, convert(counter.getCount(), factor(unit))));
        } else if (metric instanceof Gauge<?> gauge) {
            Number value = gauge.getValue();
            sample(name + suffix(unit), "gauge", help, labels,
                    new Sample("", null, null, value == null ? Double.NaN : convert(value.doubleValue(), factor(unit))));
        } else if (metric instanceof Timer timer) {
            // a timer's snapshot and elapsed time are in nanoseconds, written in seconds
            distribution(name + "_seconds", help, labels, timer.getSnapshot(), timer.getCount(),
                    timer.getElapsedTime().toNanos() / 1e9, 1e-9);
        } else if (metric instanceof Histogram histogram) {
            distribution(name + suffix(unit), help, labels, histogram.getSnapshot(), histogram.getCount(),
                    convert(histogram.getSum(), factor(unit)), factor(unit));
        }
    }

    private void distribution(String base, String help, Map<String, String> labels, Snapshot snapshot, long count, double sum,
            double factor) {
        Snapshot.HistogramBucket[] buckets = snapshot.bucketValues();
        List<Sample> samples = new ArrayList<>();
        boolean histogram = buckets != null && buckets.length > 0;
        // as Liberty writes them: the percentiles also beside the buckets
        for (Snapshot.PercentileValue percentile : snapshot.percentileValues()) {
            samples.add(new Sample("", "quantile", number(percentile.getPercentile()), convert(percentile.getValue(), factor)));
        }
        if (histogram) {
            for (Snapshot.HistogramBucket bucket : buckets) {
                if (!Double.isInfinite(bucket.getBucket())) {
                    samples.add(new Sample("_bucket", "le", number(convert(bucket.getBucket(), factor)), bucket.getCount()));
                }
            }
            samples.add(new Sample("_bucket", "le", "+Inf", count));
        }
        samples.add(new Sample("_count", null, null, count));
        samples.add(new Sample("_sum", null, null, sum));
        sample(base, histogram ? "histogram" : "summary", help, labels, samples.toArray(Sample[]::new));
        sample(base + "_max", "gauge", help, labels, new Sample("", null, null, convert(snapshot.getMax(), factor)));
    }

    private void sample(String family, String type, String help, Map<String, String> labels, Sample... samples) {
        Family target = families.computeIfAbsent(family, name -> new Family(name, type, help));
        for (Sample sample : samples) {
            StringBuilder line = new StringBuilder(family).append(sample.suffix()).append('{');
            boolean first = true;
            Map<String, String> all = labels;
            if (sample.label() != null) {
                all = new TreeMap<>(labels);
                all.put(sample.label(), sample.labelValue());
            }
            for (Map.Entry<String, String> label : all.entrySet()) {
                line.append(first ? "" : ",").append(sanitize(label.getKey())).append("=\"").append(escapeLabel(label.getValue()))
                        .append('"');
                first = false;
            }
            target.lines.add(line.append("} ").append(number(sample.value())).toString());
        }
    }

    /** The suffix a unit adds to a name. */
    static String suffix(String unit) {
        String lower = unit.toLowerCase(Locale.ROOT);
        if (lower.equals("none") || lower.isEmpty()) {
            return "";
        }
        if (TIME.containsKey(lower)) {
            return "_seconds";
        }
        if (DATA.containsKey(lower)) {
            return "_bytes";
        }
        return "_" + sanitize(lower);
    }

    /** What a value in {@code unit} is multiplied by to be in the unit of its suffix. */
    static double factor(String unit) {
        String lower = unit.toLowerCase(Locale.ROOT);
        return TIME.getOrDefault(lower, DATA.getOrDefault(lower, 1.0));
    }

    /**
     * {@code value} times {@code factor}; a factor below 1 divides by its inverse, so that a
     * bucket of 30 s in nanoseconds is written 30.0, not 30.000000000000004.
     */
    static double convert(double value, double factor) {
        return factor < 1 ? value / Math.rint(1 / factor) : value * factor;
    }

    private static final Map<String, Double> TIME = Map.of("nanoseconds", 1e-9, "microseconds", 1e-6, "milliseconds", 1e-3,
            "seconds", 1.0, "minutes", 60.0, "hours", 3600.0, "days", 86400.0);
    private static final Map<String, Double> DATA = Map.ofEntries(Map.entry("bits", 0.125), Map.entry("bytes", 1.0),
            Map.entry("kilobits", 125.0), Map.entry("kilobytes", 1000.0), Map.entry("megabits", 125_000.0),
            Map.entry("megabytes", 1_000_000.0), Map.entry("gigabits", 125_000_000.0), Map.entry("gigabytes", 1e9),
            Map.entry("kibibits", 128.0), Map.entry("kibibytes", 1024.0), Map.entry("mebibits", 131_072.0),
            Map.entry("mebibytes", 1_048_576.0), Map.entry("gibibits", 134_217_728.0), Map.entry("gibibytes", 1_073_741_824.0));

    /** A name with every character but letters, digits and {@code _} made {@code _} (a leading digit too). */
    static String sanitize(String name) {
        StringBuilder out = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c < 128 && (Character.isLetter(c) || c == '_' || (i > 0 && Character.isDigit(c)));
            out.append(ok ? c : '_');
        }
        return out.toString();
    }

    static String number(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        return Double.toString(value);
    }

    private static String escapeLabel(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String escapeHelp(String value) {
        return value.replace("\\", "\\\\").replace("\n", "\\n");
    }
}
