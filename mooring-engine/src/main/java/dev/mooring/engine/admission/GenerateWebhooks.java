package dev.mooring.engine.admission;

import dev.mooring.engine.model.ControllerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The webhook configurations of an operator as YAML, offline, from command-line arguments: the
 * {@code webhooks} command of {@code dev.mooring.manifests.GenerateManifests}, the one command line of
 * the generators:
 *
 * <pre>
 * java -cp "$OPERATOR_CLASSES:$MOORING_CLASSPATH" dev.mooring.manifests.GenerateManifests webhooks \
 *     --name widgets.example.com --service widgets --namespace operators [--port 443] \
 *     [--ca-file ca.crt] [--webhooks-admit-operator] CLASS...
 * </pre>
 *
 * <p>CLASS names the operator's admission beans, and its {@code @Controller} beans so that
 * namespace selectors follow their scope. The CA comes from {@code --ca-file}, else the system
 * property {@code mooring.webhook.ca-file}, else {@code MOORING_WEBHOOK_CA_FILE}.
 */
public final class GenerateWebhooks {

    /** The arguments, for a usage message. */
    public static final String USAGE = "--name NAME --service SERVICE --namespace NAMESPACE [--port 443] [--ca-file FILE]"
            + " [--webhooks-admit-operator] CLASS...";

    private GenerateWebhooks() {
    }

    /**
     * The YAML for these arguments; {@code env} supplies {@code MOORING_WEBHOOK_CA_FILE}.
     *
     * @throws IllegalArgumentException naming the wrong or missing argument
     * @throws ClassNotFoundException if a CLASS is not on the class path
     * @throws IOException if the CA file cannot be read
     */
    public static String generate(List<String> args, Map<String, String> env) throws IOException, ClassNotFoundException {
        String name = null;
        String service = null;
        String namespace = null;
        String caFile = null;
        int port = 443;
        boolean admitOperator = false;
        List<Class<?>> classes = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--name" -> name = value(args, ++i, arg);
                case "--service" -> service = value(args, ++i, arg);
                case "--namespace" -> namespace = value(args, ++i, arg);
                case "--ca-file" -> caFile = value(args, ++i, arg);
                case "--webhooks-admit-operator" -> admitOperator = true;
                case "--port" -> {
                    String text = value(args, ++i, arg);
                    try {
                        port = Integer.parseInt(text);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--port must be a number, not '" + text + "'");
                    }
                }
                default -> {
                    if (arg.startsWith("--")) {
                        throw new IllegalArgumentException("unknown option " + arg);
                    }
                    classes.add(Class.forName(arg));
                }
            }
        }
        if (name == null || service == null || namespace == null) {
            throw new IllegalArgumentException("--name, --service and --namespace are required");
        }
        String ca = Optional.ofNullable(caFile).or(() -> Optional.ofNullable(System.getProperty("mooring.webhook.ca-file")))
                .or(() -> Optional.ofNullable(env.get("MOORING_WEBHOOK_CA_FILE")))
                .orElseThrow(() -> new IllegalArgumentException("no CA bundle: give --ca-file, mooring.webhook.ca-file or"
                        + " MOORING_WEBHOOK_CA_FILE (the PEM CA that signed the webhook's serving certificate)"));
        List<Class<?>> policies = classes.stream().filter(AdmissionRoutes::declares).toList();
        if (policies.isEmpty()) {
            throw new IllegalArgumentException("none of the classes has @Validating or @Mutating methods");
        }
        List<WebhookConfigurations.ControllerScope> controllers = new ArrayList<>();
        for (Class<?> type : classes) {
            ControllerOptions.offline(type, namespace).map(WebhookConfigurations.ControllerScope::of).ifPresent(controllers::addAll);
        }
        WebhookConfigurations.Target target = new WebhookConfigurations.Target(name, service, namespace, port,
                Files.readAllBytes(Path.of(ca)));
        return WebhookConfigurations.toYaml(WebhookConfigurations.of(AdmissionRoutes.of(policies), controllers, namespace,
                admitOperator ? target.admittingTheOperator() : target));
    }

    private static String value(List<String> args, int index, String option) {
        if (index >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(index);
    }
}
