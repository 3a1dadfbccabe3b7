package dev.mooring.engine.model;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the duration texts of annotations and MicroProfile Config values: a number of seconds
 * ({@code 30}, {@code 0.5}), a number with a unit ({@code 500ms}, {@code 30s}, {@code 5m},
 * {@code 1h}), or ISO-8601 ({@code PT5M}).
 */
public final class Durations {

    private static final Pattern WITH_UNIT = Pattern.compile("^(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?$");

    private Durations() {
    }

    /**
     * @param where what is being parsed, for the error message (a property or annotation attribute)
     * @throws IllegalArgumentException naming {@code where} if the text is not a duration
     */
    public static Duration parse(String where, String text) {
        String value = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        Matcher matcher = WITH_UNIT.matcher(value);
        if (matcher.matches()) {
            double number = Double.parseDouble(matcher.group(1));
            double seconds = switch (matcher.group(2) == null ? "s" : matcher.group(2)) {
                case "ms" -> number / 1000;
                case "m" -> number * 60;
                case "h" -> number * 3600;
                default -> number;
            };
            return Duration.ofNanos(Math.round(seconds * 1e9));
        }
        if (value.startsWith("pt") || value.startsWith("p")) {
            try {
                return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException(where + " must be a duration such as 30s, 500ms, 5m or PT30S, got '" + text + "'");
    }

    /**
     * Like {@link #positive}, and at most {@code max}: for durations that become a socket's
     * timeout in milliseconds (a Java {@code int}), or that make no sense beyond it.
     *
     * @throws IllegalArgumentException naming {@code where} and the text
     */
    public static Duration positiveAtMost(String where, String text, Duration max) {
        Duration duration = positive(where, text);
        if (duration.compareTo(max) > 0) {
            throw new IllegalArgumentException(where + " must be at most " + describe(max) + ", got '" + text + "'");
        }
        return duration;
    }

    /** A whole duration as it would be written in configuration: {@code 1h}, {@code 5m}, {@code 30s}, {@code 500ms}. */
    static String describe(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /** Like {@link #parse}, and the duration must be greater than zero. */
    public static Duration positive(String where, String text) {
        Duration duration = parse(where, text);
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException(where + " must be greater than zero, got '" + text + "'");
        }
        return duration;
    }
}
