package dev.mooring.engine.pass;

/**
 * A failure as a status may show it: the exception's simple class name and the first line of its
 * message, control characters dropped, at most {@link #MAX_MESSAGE} characters of it. Never a stack
 * trace (a message that carries one keeps its first line only); the whole failure goes to the log.
 */
public final class FailureSummary {

    /** The most characters of the exception's message a summary keeps. */
    public static final int MAX_MESSAGE = 256;

    private FailureSummary() {
    }

    /** {@code "IllegalStateException: the database refused"}; the class name alone without a message. */
    public static String of(Throwable failure) {
        String name = failure.getClass().getSimpleName().isEmpty() ? failure.getClass().getName() : failure.getClass().getSimpleName();
        String message = failure.getMessage();
        if (message == null || message.isBlank()) {
            return name;
        }
        java.util.List<String> lines = message.strip().lines().limit(2).toList();
        String line = lines.get(0).replaceAll("\\p{Cntrl}", "");
        boolean cut = line.length() > MAX_MESSAGE || lines.size() > 1;
        return name + ": " + line.substring(0, Math.min(line.length(), MAX_MESSAGE)) + (cut ? " …" : "");
    }
}
