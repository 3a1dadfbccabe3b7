package dev.mooring.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A Liberty server of a {@link LibertyRuntime}, driven with its {@code bin/server} script and
 * {@code WLP_USER_DIR} set to its user folder.
 *
 * @param home the runtime's {@code wlp} folder
 * @param usr the user folder ({@code WLP_USER_DIR}) holding {@code servers/<name>}
 * @param name the server's name
 * @param httpPort its HTTP port
 * @param httpsPort its HTTPS port
 */
public record LibertyServer(Path home, Path usr, String name, int httpPort, int httpsPort) {

    public Path dir() {
        return usr.resolve("servers").resolve(name);
    }

    public Path messagesLog() {
        return dir().resolve("logs/messages.log");
    }

    /**
     * Runs {@code bin/server <action> <name> [options]} to its end with the extra
     * {@code environment} (start and stop return once the server has started or stopped).
     *
     * @return the script's output
     * @throws IOException carrying the output when the script fails
     */
    public String command(String action, Map<String, String> environment, String... options) throws IOException {
        return Commands.run(commandLine(action, options), environment(environment), line -> { });
    }

    /** {@code bin/server run}: the server in the foreground, its console on this process's, for the caller to wait on. */
    public Process runInForeground(Map<String, String> environment) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(commandLine("run")).inheritIO();
        builder.environment().putAll(environment(environment));
        return builder.start();
    }

    /** Stops the server when it runs, its output to {@code output}. */
    public void stop(Consumer<String> output) throws IOException {
        Commands.run(commandLine("stop"), environment(Map.of()), output);
    }

    /**
     * The process id Liberty recorded for the running server.
     *
     * @throws IOException when it recorded none (the server is not running)
     */
    public long pid() throws IOException {
        return Long.parseLong(Files.readString(usr.resolve("servers/.pid/" + name + ".pid")).trim());
    }

    private List<String> commandLine(String action, String... options) {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/server").toString(), action, name));
        command.addAll(List.of(options));
        return command;
    }

    private Map<String, String> environment(Map<String, String> extra) {
        Map<String, String> environment = new HashMap<>(extra);
        environment.put("WLP_USER_DIR", usr.toString());
        return environment;
    }
}
