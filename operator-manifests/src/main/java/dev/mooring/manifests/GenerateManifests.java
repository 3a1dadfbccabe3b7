package dev.mooring.manifests;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of the manifest generator, offline (no kubeconfig, no request): the CRDs of
 * the {@code @CustomResource} classes named, as YAML.
 *
 * <pre>
 * java -cp "$OPERATOR_CLASSES:$MOORING_CLASSPATH" dev.mooring.manifests.GenerateManifests \
 *     [--output DIR] com.example.Widget [more classes...]
 * </pre>
 *
 * Without {@code --output} the YAML goes to standard output; with it, to {@code DIR/crds.yaml}.
 * A class that is not found, or that cannot be represented, ends it with exit code 2 and a
 * message naming it.
 */
public final class GenerateManifests {

    private GenerateManifests() {
    }

    public static void main(String[] args) {
        try {
            String yaml = generate(List.of(args));
            Path output = output(List.of(args));
            if (output == null) {
                System.out.print(yaml);
            } else {
                Files.createDirectories(output);
                Files.writeString(output.resolve("crds.yaml"), yaml, StandardCharsets.UTF_8);
            }
        } catch (IllegalArgumentException | ClassNotFoundException | IOException e) {
            System.err.println("GenerateManifests: " + e.getMessage());
            System.exit(2);
        }
    }

    /** The YAML for these arguments. */
    static String generate(List<String> args) throws ClassNotFoundException {
        List<Class<?>> classes = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--output")) {
                i++;
            } else if (arg.startsWith("--")) {
                throw new IllegalArgumentException("unknown option " + arg + " (options: --output DIR)");
            } else {
                classes.add(Class.forName(arg));
            }
        }
        List<JsonObject> crds = Crds.of(classes);
        if (crds.isEmpty()) {
            throw new IllegalArgumentException("none of the classes " + args + " is a @CustomResource");
        }
        return Yaml.of(crds);
    }

    private static Path output(List<String> args) {
        int at = args.indexOf("--output");
        if (at < 0) {
            return null;
        }
        if (at + 1 >= args.size()) {
            throw new IllegalArgumentException("--output needs a directory");
        }
        return Path.of(args.get(at + 1));
    }
}
