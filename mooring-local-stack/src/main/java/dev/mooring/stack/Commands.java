package dev.mooring.stack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Runs the local stack's scripts and tools as child processes, each line of their output to a consumer. */
final class Commands {

    private Commands() {
    }

    /**
     * Runs {@code command} with {@code environment} added to this process's, to its end.
     *
     * @return its output (standard output and error merged)
     * @throws IOException naming the command and carrying its output when it exits other than 0
     */
    static String run(List<String> command, Map<String, String> environment, Consumer<String> output) throws IOException {
        return run(new ProcessBuilder(command).redirectErrorStream(true), environment, output);
    }

    /**
     * Runs {@code command} as {@link #run} does, its errors going to this process's.
     *
     * @return its standard output, none of which goes anywhere else (it may be a secret)
     */
    static String capture(List<String> command, Map<String, String> environment) throws IOException {
        return run(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT), environment, line -> { });
    }

    private static String run(ProcessBuilder builder, Map<String, String> environment, Consumer<String> output) throws IOException {
        List<String> command = builder.command();
        builder.environment().putAll(environment);
        Process process = builder.start();
        StringBuilder all = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                all.append(line).append('\n');
                if (!line.isBlank()) {
                    output.accept(line);
                }
            }
        }
        try {
            int exit = process.waitFor();
            if (exit != 0) {
                throw new IOException(String.join(" ", command) + " failed (exit " + exit + "):\n" + all);
            }
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + String.join(" ", command), e);
        }
        return all.toString();
    }
}
