package dev.mooring.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Gauge;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.Metric;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.Snapshot;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;
import org.junit.jupiter.api.Test;

/**
 * The text format's rules on metrics made here. That the series are the ones Liberty's own
 * {@code /metrics} writes is tested against Liberty by MonitoringIT.
 */
class PrometheusTextTest {

    private static Counter counter(long count) {
        return new Counter() {
            @Override
            public void inc() {
            }

            @Override
            public void inc(long n) {
            }

            @Override
            public long getCount() {
                return count;
            }
        };
    }

    private static Snapshot snapshot(double max, Snapshot.HistogramBucket... buckets) {
        return new Snapshot() {
            @Override
            public long size() {
                return 0;
            }

            @Override
            public double getMax() {
                return max;
            }

            @Override
            public double getMean() {
                return 0;
            }

            @Override
            public PercentileValue[] percentileValues() {
                return new PercentileValue[] {new PercentileValue(0.5, 2e9)};
            }

            @Override
            public HistogramBucket[] bucketValues() {
                return buckets;
            }

            @Override
            public void dump(java.io.OutputStream output) {
            }
        };
    }

    private static Timer timer(long count, Duration elapsed, Snapshot snapshot) {
        return new Timer() {
            @Override
            public void update(Duration duration) {
            }

            @Override
            public <T> T time(java.util.concurrent.Callable<T> event) {
                return null;
            }

            @Override
            public void time(Runnable event) {
            }

            @Override
            public Context time() {
                return null;
            }

            @Override
            public Duration getElapsedTime() {
                return elapsed;
            }

            @Override
            public long getCount() {
                return count;
            }

            @Override
            public Snapshot getSnapshot() {
                return snapshot;
            }
        };
    }

    private static PrometheusText.Scope scope(String name, Map<MetricID, Metric> metrics, Map<String, Metadata> metadata) {
        return new PrometheusText.Scope(name, new TreeMap<>(metrics), metadata::get);
    }

    @Test
    void countersEndInTotalAndGaugesAreConvertedToTheirSuffixUnit() {
        Gauge<Long> uptime = () -> 1500L;
        String text = PrometheusText.of(List.of(
                scope("base", Map.of(new MetricID("jvm.uptime"), uptime), Map.of("jvm.uptime",
                        Metadata.builder().withName("jvm.uptime").withUnit("milliseconds").withDescription("Up time\nof the JVM").build())),
                scope("application", Map.of(new MetricID("passes", new Tag("controller", "a\"b")), counter(3),
                        new MetricID("writes_total"), counter(2)), Map.of())));
        assertEquals(String.join("\n",
                "# HELP jvm_uptime_seconds Up time\\nof the JVM",
                "# TYPE jvm_uptime_seconds gauge",
                "jvm_uptime_seconds{mp_scope=\"base\"} 1.5",
                "# HELP passes_total ",
                "# TYPE passes_total counter",
                "passes_total{controller=\"a\\\"b\",mp_scope=\"application\"} 3.0",
                "# HELP writes_total ",
                "# TYPE writes_total counter",
                "writes_total{mp_scope=\"application\"} 2.0", ""), text);
    }

    @Test
    void aTimerWithBucketsIsAHistogramInSecondsWithItsMax() {
        Snapshot snapshot = snapshot(3e9, new Snapshot.HistogramBucket(5e6, 1), new Snapshot.HistogramBucket(30e9, 3));
        String text = PrometheusText.of(List.of(scope("application", Map.of(new MetricID("pass_time", new Tag("controller", "c")),
                timer(4, Duration.ofMillis(4500), snapshot)), Map.of())));
        assertEquals(String.join("\n",
                "# HELP pass_time_seconds ",
                "# TYPE pass_time_seconds histogram",
                "pass_time_seconds{controller=\"c\",mp_scope=\"application\",quantile=\"0.5\"} 2.0",
                "pass_time_seconds_bucket{controller=\"c\",le=\"0.005\",mp_scope=\"application\"} 1.0",
                "pass_time_seconds_bucket{controller=\"c\",le=\"30.0\",mp_scope=\"application\"} 3.0",
                "pass_time_seconds_bucket{controller=\"c\",le=\"+Inf\",mp_scope=\"application\"} 4.0",
                "pass_time_seconds_count{controller=\"c\",mp_scope=\"application\"} 4.0",
                "pass_time_seconds_sum{controller=\"c\",mp_scope=\"application\"} 4.5",
                "# HELP pass_time_seconds_max ",
                "# TYPE pass_time_seconds_max gauge",
                "pass_time_seconds_max{controller=\"c\",mp_scope=\"application\"} 3.0", ""), text);
    }

    @Test
    void aTimerWithoutBucketsIsASummaryOfItsPercentiles() {
        String text = PrometheusText.of(List.of(scope("vendor", Map.of(new MetricID("t"), timer(1, Duration.ofSeconds(2),
                snapshot(2e9))), Map.of())));
        assertEquals(true, text.contains("# TYPE t_seconds summary\nt_seconds{mp_scope=\"vendor\",quantile=\"0.5\"} 2.0\n"), text);
    }

    @Test
    void namesAndUnitsAreSanitized() {
        assertEquals("servlet_request_elapsedTime_per_request", PrometheusText.sanitize("servlet.request.elapsedTime.per.request"));
        assertEquals("_lives", PrometheusText.sanitize("9lives"));
        assertEquals("_bytes", PrometheusText.suffix("kibibytes"));
        assertEquals(1024.0, PrometheusText.factor("kibibytes"));
        assertEquals("_percent", PrometheusText.suffix("percent"));
        assertEquals("", PrometheusText.suffix("none"));
    }
}
