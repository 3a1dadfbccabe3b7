package dev.mooring.stack;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The local stack from a shell ({@code scripts/local-stack.sh}, which {@code scripts/liberty.sh},
 * the demo and the integration tests' build use), with the cache of {@code MOORING_CACHE}:
 * <pre>
 *   liberty-home ZIP VERSION                      install Open Liberty; print its wlp folder
 *   liberty-server ZIP VERSION CONFIG_DIR USR NAME HTTP_PORT HTTPS_PORT [KEY=VALUE ...]
 *                                                 install, write server NAME under USR; print its folder
 *   ports COUNT                                   print COUNT free ports
 *   apiserver-up FOLDER RUN_DIR [FLAG ...]        start a local API server from FOLDER (holding
 *                                                 local-apiserver.sh) in RUN_DIR; print its kubeconfig
 *   apiserver-down FOLDER RUN_DIR                 stop the one of RUN_DIR
 * </pre>
 * The scripts' own output goes to standard error, so that standard output holds the result alone.
 * Exits 2 on a wrong command line, 1 when the work fails, with the reason on standard error.
 */
public final class StackCommand {

    private StackCommand() {
    }

    public static void main(String[] args) {
        try {
            System.out.println(run(args, StackCache.fromEnvironment()));
        } catch (IllegalArgumentException e) {
            System.err.println("mooring-local-stack: " + e.getMessage());
            System.exit(2);
        } catch (IOException | RuntimeException e) {
            System.err.println("mooring-local-stack: " + e.getMessage());
            System.exit(1);
        }
    }

    static String run(String[] args, StackCache cache) throws IOException {
        String command = args.length == 0 ? "" : args[0];
        switch (command) {
            case "liberty-home":
                expect(args, 3, 3, "liberty-home ZIP VERSION");
                return LibertyRuntime.install(Path.of(args[1]), args[2], cache).home().toString();
            case "liberty-server":
                expect(args, 8, Integer.MAX_VALUE, "liberty-server ZIP VERSION CONFIG_DIR USR NAME HTTP_PORT HTTPS_PORT [KEY=VALUE ...]");
                int http = port(args[6]);
                int https = port(args[7]);
                Map<String, String> bootstrap = properties(Arrays.copyOfRange(args, 8, args.length));
                LibertyRuntime runtime = LibertyRuntime.install(Path.of(args[1]), args[2], cache);
                return runtime.createServer(Path.of(args[4]), args[5], LibertyRuntime.Configuration.fromFolder(Path.of(args[3])),
                        http, https, bootstrap).dir().toString();
            case "ports":
                expect(args, 2, 2, "ports COUNT");
                return Arrays.stream(FreePorts.pick(count(args[1]))).mapToObj(Integer::toString).collect(Collectors.joining(" "));
            case "apiserver-up":
                expect(args, 3, Integer.MAX_VALUE, "apiserver-up FOLDER RUN_DIR [FLAG ...]");
                return ApiServerLauncher.fromFolder(Path.of(args[1]), cache, System.err::println)
                        .up(Path.of(args[2]), Arrays.copyOfRange(args, 3, args.length)).kubeconfig().toString();
            case "apiserver-down":
                expect(args, 3, 3, "apiserver-down FOLDER RUN_DIR");
                ApiServerLauncher.fromFolder(Path.of(args[1]), cache, System.err::println).down(Path.of(args[2]));
                return "";
            default:
                throw new IllegalArgumentException("unknown command '" + command + "'; one of liberty-home, liberty-server, ports,"
                        + " apiserver-up, apiserver-down");
        }
    }

    private static void expect(String[] args, int min, int max, String usage) {
        if (args.length < min || args.length > max) {
            throw new IllegalArgumentException("usage: " + usage);
        }
    }

    private static int port(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port > 0 && port < 65536) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("'" + value + "' is not a port (1 to 65535)");
    }

    private static int count(String value) {
        try {
            int count = Integer.parseInt(value);
            if (count > 0 && count <= 100) {
                return count;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("'" + value + "' is not a count of ports (1 to 100)");
    }

    private static Map<String, String> properties(String[] pairs) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (String pair : pairs) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("'" + pair + "' is not KEY=VALUE");
            }
            properties.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        return properties;
    }
}
