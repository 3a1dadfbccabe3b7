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
 * the {@code @CustomResource} classes named and, with {@code --name} and {@code --namespace},
 * the ServiceAccount and RBAC of the controllers and admission beans named ({@link Rbac}), as YAML.
 *
 * <pre>
 * java -cp "$OPERATOR_CLASSES:$MOORING_CLASSPATH" dev.mooring.manifests.GenerateManifests \
 *     [--output DIR] [--name widgets --namespace operators [--lease-name widgets]] com.example.Widget com.example.WidgetController ...
 * </pre>
 *
 * Without {@code --output} the YAML goes to standard output; with it, to {@code DIR/crds.yaml}
 * and {@code DIR/rbac.yaml}.
 * A class that is not found, or that cannot be represented, ends it with exit code 2 and a
 * message naming it.
 */
public final class GenerateManifests {

    private GenerateManifests() {
    }

    public static void main(String[] args) {
        try {
            Generated generated = generate(List.of(args));
            Path output = option(List.of(args), "--output");
            if (output == null) {
                System.out.print(generated.crds() + generated.rbac());
            } else {
                Files.createDirectories(output);
                if (!generated.crds().isEmpty()) {
                    Files.writeString(output.resolve("crds.yaml"), generated.crds(), StandardCharsets.UTF_8);
                }
                if (!generated.rbac().isEmpty()) {
                    Files.writeString(output.resolve("rbac.yaml"), generated.rbac(), StandardCharsets.UTF_8);
                }
            }
        } catch (IllegalArgumentException | ClassNotFoundException | IOException e) {
            System.err.println("GenerateManifests: " + e.getMessage());
            System.exit(2);
        }
    }

    /** The YAML documents generated: CRDs, and RBAC (empty without {@code --name}). */
    record Generated(String crds, String rbac) {
    }

    /** The YAML for these arguments. */
    static Generated generate(List<String> args) throws ClassNotFoundException {
        List<Class<?>> classes = new ArrayList<>();
        java.util.Map<String, String> options = new java.util.HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (List.of("--output", "--name", "--namespace", "--lease-name").contains(arg)) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(arg + " needs a value");
                }
                options.put(arg, args.get(++i));
            } else if (arg.startsWith("--")) {
                throw new IllegalArgumentException("unknown option " + arg + " (options: --output DIR, --name NAME, --namespace"
                        + " NAMESPACE, --lease-name LEASE)");
            } else {
                classes.add(Class.forName(arg));
            }
        }
        List<JsonObject> crds = Crds.of(classes);
        String name = options.get("--name");
        String namespace = options.get("--namespace");
        if ((name == null) != (namespace == null)) {
            throw new IllegalArgumentException("--name and --namespace go together (the ServiceAccount and its roles)");
        }
        List<JsonObject> rbac = name == null ? List.of()
                : Rbac.of(classes, new Rbac.Settings(name, namespace, options.get("--lease-name")));
        if (crds.isEmpty() && rbac.isEmpty()) {
            throw new IllegalArgumentException("nothing to generate: none of " + classes.stream().map(Class::getName).toList()
                    + " is a @CustomResource, and RBAC needs --name and --namespace");
        }
        return new Generated(crds.isEmpty() ? "" : Yaml.of(crds), rbac.isEmpty() ? "" : Yaml.of(rbac));
    }

    private static Path option(List<String> args, String option) {
        int at = args.indexOf(option);
        return at < 0 || at + 1 >= args.size() ? null : Path.of(args.get(at + 1));
    }
}
