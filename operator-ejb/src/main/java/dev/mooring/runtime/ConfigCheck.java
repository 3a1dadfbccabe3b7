package dev.mooring.runtime;

import dev.mooring.engine.model.ControllerOptions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.Config;

/**
 * Checks Mooring's configuration when the application deploys, so that a wrong value or a typo
 * fails the deployment naming the property instead of surfacing later (or never):
 * <ul>
 * <li>every global {@code mooring.*} key is read and parsed, whether the code path that uses it
 * runs yet or not;</li>
 * <li>a {@code mooring.*} property that Mooring does not know is an error naming the keys it
 * knows; a {@code mooring.controller.<name>.<option>} property must name a controller of the
 * deployment and one of its options ({@link ControllerOptions#OPTIONS});</li>
 * <li>in environment-variable form ({@code MOORING_CONTROLLER_..._WORKERS}) a per-controller
 * variable must match one of those properties; other unknown {@code MOORING_*} variables are
 * left alone, because scripts use that prefix for their own settings.</li>
 * </ul>
 * The webhook port and the admission pool are parsed for every deployment (a wrong value is wrong
 * whether the application has webhooks or not); the webhook settings that depend on each other
 * are checked by {@link AdmissionExtension}, where they apply.
 */
final class ConfigCheck {

    /** Every global key Mooring reads (not per controller). */
    static final Set<String> GLOBAL_KEYS = Set.of("mooring.namespace", "mooring.kubeconfig", "mooring.request.timeout",
            "mooring.connection.ping-interval", "mooring.namespaces.poll-interval",
            "mooring.watch.idle-timeout", "mooring.retry.base-delay", "mooring.retry.max-delay", "mooring.leader-election.enabled",
            "mooring.read-your-writes.enabled", "mooring.read-your-writes.max-wait",
            "mooring.leader-election.lease-name", "mooring.leader-election.namespace", "mooring.leader-election.identity",
            "mooring.leader-election.lease-duration", "mooring.leader-election.renew-deadline",
            "mooring.leader-election.retry-period", "mooring.leader-election.warm-standby", "mooring.sharding.shards", "mooring.webhook.port", "mooring.webhook.ca-file",
            "mooring.webhook.tls.cert-file", "mooring.webhook.tls.key-file", "mooring.webhook.tls.keystore",
            "mooring.webhook.tls.keystore-password", "mooring.webhook.tls.client-auth", "mooring.webhook.tls.client-ca-file",
            "mooring.admission.threads", "mooring.admission.queue", "mooring.webhook.certificates",
            "mooring.webhook.certificates.service", "mooring.webhook.certificates.secret",
            "mooring.webhook.certificates.webhook-configuration", "mooring.webhook.certificates.service-account",
            "mooring.webhook.certificates.validity", "mooring.webhook.certificates.ca-validity", "mooring.metrics.secure",
            // read by server.xml (Liberty parses it), not by Mooring
            "mooring.http.read-timeout", "mooring.webhook.tls.client-trust");

    private ConfigCheck() {
    }

    /**
     * The problems of this configuration, each naming the property; empty when it is right.
     *
     * @param controllers the names of the deployment's controllers
     */
    static List<RuntimeException> problems(Config config, Collection<String> controllers) {
        return problems(config, controllers, System::getenv);
    }

    /**
     * @param environment the process environment; a property that comes from it (by its name or
     *     its environment form) is judged by its environment form only: servers list environment
     *     variables under derived names too ({@code MOORING_CACHE} as {@code mooring.cache})
     */
    static List<RuntimeException> problems(Config config, Collection<String> controllers,
            java.util.function.Function<String, String> environment) {
        List<RuntimeException> problems = new ArrayList<>();
        MooringConfig values = new MooringConfig(config);
        check(problems, values::namespace);
        check(problems, values::requestTimeout);
        check(problems, values::watchIdleTimeout);
        check(problems, values::pingInterval);
        check(problems, values::namespacesPollInterval);
        check(problems, values::retry);
        check(problems, values::readYourWrites);
        check(problems, () -> MooringConfig.leaderElectionEnabled(config) ? values.leaderElection() : null);
        check(problems, () -> MooringConfig.shards(config) > 0
                ? new dev.mooring.engine.replica.ShardSettings(values.leaderElection(), MooringConfig.shards(config)) : null);
        check(problems, () -> MooringConfig.warmStandby(config));
        check(problems, () -> MooringConfig.webhookPort(config));
        check(problems, () -> MooringConfig.admissionPool(config));
        check(problems, () -> MooringConfig.metricsSecure(config));
        check(problems, () -> MooringConfig.selfManagedCertificates(config, "default"));
        Set<String> perController = new TreeSet<>();
        for (String controller : controllers) {
            for (String option : ControllerOptions.OPTIONS) {
                perController.add(ControllerOptions.PREFIX + controller + "." + option);
            }
        }
        Set<String> environmentForms = new TreeSet<>();
        perController.forEach(key -> environmentForms.add(environmentForm(key)));
        Set<String> reported = new TreeSet<>();
        for (String name : config.getPropertyNames()) {
            String variable = environment.apply(name) != null ? name
                    : environment.apply(environmentForm(name)) != null ? environmentForm(name) : null;
            if (variable != null) {
                if (variable.startsWith("MOORING_CONTROLLER_") && !environmentForms.contains(variable) && reported.add(variable)) {
                    problems.add(unknownControllerVariable(variable, controllers));
                }
                continue;
            }
            if (name.startsWith(ControllerOptions.PREFIX)) {
                if (!perController.contains(name)) {
                    problems.add(unknownControllerProperty(name, controllers));
                }
            } else if (name.startsWith("mooring.") && !GLOBAL_KEYS.contains(name)) {
                problems.add(new IllegalArgumentException(name + " is not a Mooring property; known: " + new TreeSet<>(GLOBAL_KEYS)
                        + " and " + ControllerOptions.PREFIX + "<controller>.<option>"));
            }
        }
        return problems;
    }

    private static RuntimeException unknownControllerVariable(String variable, Collection<String> controllers) {
        return new IllegalArgumentException("Environment variable " + variable + " names no option of a controller of this"
                + " deployment (controllers: " + new TreeSet<>(controllers) + "; options: " + ControllerOptions.OPTIONS
                + ", written MOORING_CONTROLLER_<NAME>_<OPTION> with '-' and '.' as '_')");
    }

    private static RuntimeException unknownControllerProperty(String name, Collection<String> controllers) {
        String rest = name.substring(ControllerOptions.PREFIX.length());
        int dot = rest.lastIndexOf('.');
        String controller = dot < 0 ? rest : rest.substring(0, dot);
        String option = dot < 0 ? "" : rest.substring(dot + 1);
        if (!controllers.contains(controller)) {
            return new IllegalArgumentException(name + ": this deployment has no controller named '" + controller
                    + "' (controllers: " + new TreeSet<>(controllers) + ")");
        }
        return new IllegalArgumentException(name + ": controllers have no option '" + option + "' (options: "
                + ControllerOptions.OPTIONS + ")");
    }

    /** MicroProfile Config's environment form of a property name: upper case, every other character as '_'. */
    static String environmentForm(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    private static void check(List<RuntimeException> problems, Supplier<?> read) {
        try {
            read.get();
        } catch (RuntimeException e) {
            problems.add(e);
        }
    }
}
