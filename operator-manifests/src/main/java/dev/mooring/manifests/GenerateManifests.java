package dev.mooring.manifests;

import dev.mooring.engine.admission.AdmissionRoutes;
import dev.mooring.engine.admission.WebhookConfigurations;
import dev.mooring.engine.model.ControllerOptions;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of the manifest generator, offline (no kubeconfig, no request), from the
 * operator's compiled classes:
 *
 * <pre>
 * java -cp "$OPERATOR_CLASSES:$MOORING_CLASSPATH" dev.mooring.manifests.GenerateManifests \
 *     --output DIR [--name NAME --namespace NAMESPACE [--image IMAGE] [--replicas N] [--lease-name LEASE] [--shards N]
 *     [--certificates self-managed|cert-manager [--issuer KIND/NAME] | --ca-file CA.crt | --inject-ca-from NAMESPACE/CERTIFICATE]
 *     [--without-webhooks] [--webhooks-admit-operator] [--monitoring] [--secure-metrics]] CLASS...
 * </pre>
 *
 * <ul>
 * <li>always the CRDs of the {@code @CustomResource} classes ({@code crds.yaml});</li>
 * <li>with {@code --name} and {@code --namespace}: the ServiceAccount and RBAC ({@code rbac.yaml});</li>
 * <li>with {@code --image} too: the Deployment ({@code deployment.yaml}) and, when admission
 * beans are among the classes (unless {@code --without-webhooks}), the Service and the webhook
 * configurations ({@code service.yaml}, {@code webhooks.yaml}, named {@code <name>.<namespace>.svc});
 * their certificate by {@link Certificates.Mode}: self-managed by the operator (the default: RBAC
 * for its Secret and configurations, no bundle in the files), from cert-manager
 * ({@code --certificates cert-manager}: {@code certificates.yaml} with the Certificate and a
 * self-signed Issuer unless {@code --issuer} names one), or from a Secret made elsewhere with the
 * bundle from {@code --ca-file} (or {@code MOORING_WEBHOOK_CA_FILE}) or injected by cert-manager
 * from the Certificate {@code --inject-ca-from} names;</li>
 * <li>with {@code --image} and {@code --monitoring}: the monitoring kit ({@code monitoring.yaml}, see
 * {@link Monitoring}), for a cluster that runs the Prometheus Operator;</li>
 * <li>{@code kustomization.yaml} listing them, so that {@code kubectl apply -k DIR} installs them.</li>
 * </ul>
 *
 * Without {@code --output} every document goes to standard output. A wrong argument ends it
 * with exit code 2 and a message naming it, with the Maven setting of the same option
 * ({@code --ca-file} is {@code -Dmooring.manifests.ca-file}).
 *
 * <p>With {@value #WEBHOOKS} as its first argument, it prints only the webhook configurations,
 * for an operator whose Service and certificate are made elsewhere (see
 * {@link dev.mooring.engine.admission.GenerateWebhooks} for the arguments): the one command line of
 * the generators, so that {@code MOORING_CLASSPATH} always means {@code operator-manifests} with its
 * dependencies.
 */
public final class GenerateManifests {

    private static final List<String> VALUED = List.of("--output", "--name", "--namespace", "--lease-name", "--shards", "--image", "--replicas",
            "--ca-file", "--inject-ca-from", "--certificates", "--issuer");
    /** The operator's Namespace, first of the folder after the CRDs (unless {@code --without-namespace}). */
    public static final String NAMESPACE_FILE = "namespace.yaml";

    /** The single-file install beside the kustomize folder: every object, not listed in kustomization.yaml. */
    public static final String INSTALL_FILE = "install.yaml";

    /** The options without a value. */
    private static final List<String> FLAGS = List.of("--without-webhooks", "--without-namespace", "--webhooks-admit-operator",
            "--monitoring", "--secure-metrics");

    private GenerateManifests() {
    }

    /** The first argument that selects the webhook configurations alone. */
    public static final String WEBHOOKS = "webhooks";

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals(WEBHOOKS)) {
            try {
                System.out.print(dev.mooring.engine.admission.GenerateWebhooks.generate(List.of(args).subList(1, args.length),
                        System.getenv()));
            } catch (IllegalArgumentException | ClassNotFoundException | IOException e) {
                System.err.println("GenerateManifests webhooks: " + e.getMessage());
                System.err.println("usage: GenerateManifests webhooks " + dev.mooring.engine.admission.GenerateWebhooks.USAGE);
                System.exit(2);
            }
            return;
        }
        try {
            Map<String, String> files = generate(List.of(args), System.getenv());
            String output = options(List.of(args)).get("--output");
            notes(files).forEach(note -> System.err.println("GenerateManifests: " + note));
            if (output == null) {
                System.out.print(stream(files));
            } else {
                Path dir = Path.of(output);
                Files.createDirectories(dir);
                for (Map.Entry<String, String> file : files.entrySet()) {
                    Files.writeString(dir.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
                }
            }
        } catch (IllegalArgumentException | ClassNotFoundException | IOException e) {
            System.err.println("GenerateManifests: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * What to generate besides the CRDs: built with {@link #builder()}, every part optional (null,
     * 0 or false by default), checked as a whole when built.
     */
    public static final class Options {
        private final String name;
        private final String namespace;
        private final String image;
        private final int replicas;
        private final String leaseName;
        private final String caFile;
        private final String injectCaFrom;
        private final boolean withoutWebhooks;
        private final boolean withoutNamespace;
        private final boolean webhooksAdmitOperator;
        private final String certificates;
        private final String issuer;
        private final boolean monitoring;
        private final boolean secureMetrics;
        private final int shards;

        private Options(Builder builder) {
            name = builder.name;
            namespace = builder.namespace;
            image = builder.image;
            replicas = builder.replicas;
            leaseName = builder.leaseName;
            caFile = builder.caFile;
            injectCaFrom = builder.injectCaFrom;
            withoutWebhooks = builder.withoutWebhooks;
            withoutNamespace = builder.withoutNamespace;
            webhooksAdmitOperator = builder.webhooksAdmitOperator;
            certificates = builder.certificates;
            issuer = builder.issuer;
            monitoring = builder.monitoring;
            secureMetrics = builder.secureMetrics;
            shards = builder.shards;
            if ((name == null) != (namespace == null)) {
                throw new IllegalArgumentException(option("--name") + " and " + option("--namespace")
                        + " go together (the ServiceAccount and its roles)");
            }
            if (name == null && image != null) {
                throw new IllegalArgumentException(option("--image") + " needs " + option("--name") + " and " + option("--namespace"));
            }
            if (caFile != null && injectCaFrom != null) {
                throw new IllegalArgumentException("give " + option("--ca-file") + " or " + option("--inject-ca-from") + ", not both");
            }
            if (certificates != null) {
                Certificates.Mode.of(certificates);
                if (caFile != null || injectCaFrom != null) {
                    throw new IllegalArgumentException(option("--certificates") + " " + certificates + " makes the certificate: leave out "
                            + option(caFile != null ? "--ca-file" : "--inject-ca-from") + ", which names one made elsewhere");
                }
            }
            if (replicas < 0) {
                throw new IllegalArgumentException(option("--replicas") + " must be at least 1 (or 0 for the default), got " + replicas);
            }
            if (shards < 0 || shards > dev.mooring.engine.replica.ShardSettings.MAX_SHARDS) {
                throw new IllegalArgumentException(option("--shards") + " must be from 0 to "
                        + dev.mooring.engine.replica.ShardSettings.MAX_SHARDS + ", got " + shards);
            }
            if (issuer != null && !"cert-manager".equals(certificates)) {
                throw new IllegalArgumentException(option("--issuer") + " needs " + option("--certificates") + " cert-manager");
            }
        }

        /** Options with nothing set: CRDs only. */
        public static Builder builder() {
            return new Builder();
        }

        /** The ServiceAccount's, roles', Deployment's and Service's name (null: CRDs only). */
        public String name() {
            return name;
        }

        /** The operator's namespace (with {@link #name()}). */
        public String namespace() {
            return namespace;
        }

        /** The operator's image (null: no Deployment). */
        public String image() {
            return image;
        }

        /**
         * The Deployment's replicas; 0 for the default: 2 when the operator serves webhooks (a
         * restart, rollout or drain of one pod then refuses none of the writes they match: every
         * replica serves them), with leader election on a Lease named {@link #name()} unless
         * {@link #leaseName()} or {@link #shards()} says otherwise; else 1.
         */
        public int replicas() {
            return replicas;
        }

        /** The leader election Lease, or null. */
        public String leaseName() {
            return leaseName;
        }

        /** The webhook configurations' CA bundle (PEM), or null for {@code MOORING_WEBHOOK_CA_FILE}. */
        public String caFile() {
            return caFile;
        }

        /** The cert-manager Certificate ({@code namespace/name}) to inject the CA from, instead of a file. */
        public String injectCaFrom() {
            return injectCaFrom;
        }

        /** True to leave the webhooks out (no Service, no registration). */
        public boolean withoutWebhooks() {
            return withoutWebhooks;
        }

        /** True to leave the operator's Namespace out (it exists already, and the install must not own it). */
        public boolean withoutNamespace() {
            return withoutNamespace;
        }

        /** True when the webhooks also see the operator's own requests (by default they leave them out). */
        public boolean webhooksAdmitOperator() {
            return webhooksAdmitOperator;
        }

        /** The certificate mode asked for ({@link Certificates.Mode}), or null for the one the CA options imply. */
        public String certificates() {
            return certificates;
        }

        /** The cert-manager issuer (with certificates {@code cert-manager}), or null. */
        public String issuer() {
            return issuer;
        }

        /**
         * True for the monitoring kit ({@link Monitoring}): metrics Service, ServiceMonitor,
         * PrometheusRule and Grafana dashboard, in {@code monitoring.yaml} (with {@link #image()}).
         */
        public boolean monitoring() {
            return monitoring;
        }

        /**
         * True to serve metrics only to callers the API server authenticates and authorizes:
         * {@code MOORING_METRICS_SECURE=true} and the HTTPS port in the Deployment, the review
         * rights for the operator and a {@code <name>-metrics-reader} ClusterRole in the RBAC, and
         * the monitoring kit scraping {@code /mooring/metrics} over HTTPS with a bearer token.
         */
        public boolean secureMetrics() {
            return secureMetrics;
        }

        /** The shards the replicas share the work in (0: none). */
        public int shards() {
            return shards;
        }

        /**
         * The certificate mode: {@code certificates} when given; else a given Secret when a CA
         * file ({@code caFile}, else {@code MOORING_WEBHOOK_CA_FILE}) or {@code injectCaFrom}
         * names its CA; else self-managed.
         */
        public Certificates.Mode certificateMode(Map<String, String> environment) {
            if (certificates != null) {
                return Certificates.Mode.of(certificates);
            }
            return caFile != null || injectCaFrom != null || environment.get("MOORING_WEBHOOK_CA_FILE") != null
                    ? Certificates.Mode.GIVEN : Certificates.Mode.SELF_MANAGED;
        }

        /** The parts of {@link Options}; {@link #build()} checks them together. */
        public static final class Builder {
            private String name;
            private String namespace;
            private String image;
            private int replicas;
            private String leaseName;
            private String caFile;
            private String injectCaFrom;
            private boolean withoutWebhooks;
            private boolean withoutNamespace;
            private boolean webhooksAdmitOperator;
            private String certificates;
            private String issuer;
            private boolean monitoring;
            private boolean secureMetrics;
            private int shards;

            private Builder() {
            }

            public Builder name(String name) {
                this.name = name;
                return this;
            }

            public Builder namespace(String namespace) {
                this.namespace = namespace;
                return this;
            }

            public Builder image(String image) {
                this.image = image;
                return this;
            }

            public Builder replicas(int replicas) {
                this.replicas = replicas;
                return this;
            }

            public Builder leaseName(String leaseName) {
                this.leaseName = leaseName;
                return this;
            }

            public Builder caFile(String caFile) {
                this.caFile = caFile;
                return this;
            }

            public Builder injectCaFrom(String injectCaFrom) {
                this.injectCaFrom = injectCaFrom;
                return this;
            }

            public Builder withoutWebhooks(boolean withoutWebhooks) {
                this.withoutWebhooks = withoutWebhooks;
                return this;
            }

            public Builder withoutNamespace(boolean withoutNamespace) {
                this.withoutNamespace = withoutNamespace;
                return this;
            }

            public Builder webhooksAdmitOperator(boolean webhooksAdmitOperator) {
                this.webhooksAdmitOperator = webhooksAdmitOperator;
                return this;
            }

            public Builder certificates(String certificates) {
                this.certificates = certificates;
                return this;
            }

            public Builder issuer(String issuer) {
                this.issuer = issuer;
                return this;
            }

            public Builder monitoring(boolean monitoring) {
                this.monitoring = monitoring;
                return this;
            }

            public Builder secureMetrics(boolean secureMetrics) {
                this.secureMetrics = secureMetrics;
                return this;
            }

            public Builder shards(int shards) {
                this.shards = shards;
                return this;
            }

            /** @throws IllegalArgumentException naming the options (both spellings) that do not go together, or a wrong value */
            public Options build() {
                return new Options(this);
            }
        }
    }

    /** An option as both of its spellings: the command line's and the Maven plugin's. */
    static String option(String flag) {
        return flag + " (Maven: mooring.manifests." + flag.substring(2) + ")";
    }

    /** The files for these arguments, by name, in install order, {@code kustomization.yaml} last. */
    static Map<String, String> generate(List<String> args, Map<String, String> environment)
            throws ClassNotFoundException, IOException {
        Map<String, String> options = options(args);
        List<Class<?>> classes = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (VALUED.contains(args.get(i))) {
                i++;
            } else if (!FLAGS.contains(args.get(i))) {
                classes.add(Class.forName(args.get(i)));
            }
        }
        return files(classes, Options.builder().name(options.get("--name")).namespace(options.get("--namespace"))
                .image(options.get("--image")).replicas(replicas(options)).leaseName(options.get("--lease-name"))
                .caFile(options.get("--ca-file")).injectCaFrom(options.get("--inject-ca-from"))
                .withoutWebhooks(args.contains("--without-webhooks")).withoutNamespace(args.contains("--without-namespace"))
                .webhooksAdmitOperator(args.contains("--webhooks-admit-operator"))
                .certificates(options.get("--certificates")).issuer(options.get("--issuer")).monitoring(args.contains("--monitoring"))
                .secureMetrics(args.contains("--secure-metrics")).shards(wholeNumber(options, "--shards", "0")).build(), environment);
    }

    /**
     * The files for these classes (custom resources, controllers, admission beans; others are
     * skipped), by name, in install order, then {@code kustomization.yaml}, then
     * {@link #INSTALL_FILE} with all of them in one file.
     *
     * @throws IllegalArgumentException naming what is wrong, or when there is nothing to generate
     */
    public static Map<String, String> files(List<Class<?>> classes, Options options, Map<String, String> environment)
            throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        List<JsonObject> crds = Crds.of(classes);
        if (!crds.isEmpty()) {
            files.put("crds.yaml", Yaml.of(crds));
        }
        if (options.name() != null) {
            List<Class<?>> policies = classes.stream().filter(AdmissionRoutes::declares).toList();
            // webhooks registered without a Deployment and Service to answer them would refuse every request they match
            boolean webhooks = !policies.isEmpty() && !options.withoutWebhooks() && options.image() != null;
            if (!policies.isEmpty() && !options.withoutWebhooks() && options.image() == null) {
                notes.add("the admission webhooks of " + policies.stream().map(Class::getSimpleName).toList()
                        + " are left out: without " + option("--image") + " there is no Deployment to serve them");
            }
            if (!webhooks && options.caFile() != null) {
                throw new IllegalArgumentException(option("--ca-file") + " names the CA of webhooks, but " + (policies.isEmpty() ? "none of the classes declares one"
                        : options.withoutWebhooks() ? "--without-webhooks leaves them out" : "there is no " + option("--image")));
            }
            Certificates.Mode certificates = options.certificateMode(environment);
            // two replicas by default with webhooks: a single one refuses the matching writes (failurePolicy Fail) while it restarts
            int replicas = options.replicas() > 0 ? options.replicas() : webhooks ? 2 : 1;
            String leaseName = options.leaseName() == null && options.replicas() == 0 && replicas > 1 && options.shards() == 0
                    ? options.name() : options.leaseName();
            Rbac.Settings rbac = Rbac.Settings.builder(options.name(), options.namespace()).leaseName(leaseName)
                    .selfManagedCertificates(webhooks && certificates == Certificates.Mode.SELF_MANAGED)
                    .secureMetrics(options.secureMetrics()).shards(options.shards()).build();
            if (!options.withoutNamespace()) {
                files.put(NAMESPACE_FILE, Yaml.of(List.of(namespace(options))));
            }
            files.put("rbac.yaml", Yaml.of(Rbac.of(classes, rbac)));
            if (webhooks && certificates == Certificates.Mode.CERT_MANAGER) {
                files.put("certificates.yaml", Yaml.of(Certificates.certManager(options.name(), options.namespace(), options.issuer())));
            }
            if (options.image() != null) {
                Workload.Settings workload = new Workload.Settings(options, replicas, leaseName, webhooks, certificates);
                List<JsonObject> deployment = new ArrayList<>(List.of(Workload.deployment(workload)));
                Workload.disruptionBudget(workload).ifPresent(deployment::add);
                files.put("deployment.yaml", Yaml.of(deployment));
                if (webhooks) {
                    files.put("service.yaml", Yaml.of(List.of(Workload.service(workload))));
                }
                if (options.monitoring()) {
                    files.put("monitoring.yaml", Yaml.of(Monitoring.objects(workload)));
                }
            } else if (options.monitoring()) {
                notes.add("the monitoring kit is left out: without " + option("--image") + " there are no pods to scrape");
            }
            if (webhooks) {
                files.put("webhooks.yaml", webhooks(policies, classes, options, environment));
            }
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("nothing to generate: none of " + classes.stream().map(Class::getName).toList()
                    + " is a @CustomResource, and the rest needs " + option("--name") + " and " + option("--namespace"));
        }
        StringBuilder kustomization = new StringBuilder();
        notes.forEach(note -> kustomization.append("# ").append(note).append('\n'));
        kustomization.append("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n");
        StringBuilder install = new StringBuilder("# Every object of this folder in one file, in install order (kubectl apply -f"
                + " install.yaml); kustomization.yaml lists the same objects by file\n");
        Map<String, String> folder = new LinkedHashMap<>();
        files.forEach((file, content) -> {
            kustomization.append("  - ").append(file).append('\n');
            install.append("# ").append(file).append('\n').append(content);
            // the folder's copy follows an overlay's namespace and prefix; install.yaml holds the values
            folder.put(file, options.name() == null || file.equals("crds.yaml") ? content
                    : KustomizeFolder.withVariables(content, options.name(), options.namespace(), files.containsKey("certificates.yaml")));
        });
        if (options.name() != null) {
            kustomization.append(KustomizeFolder.kustomization(options.name()));
            folder.put(KustomizeFolder.CONFIGURATIONS_FILE, KustomizeFolder.configurations());
        }
        folder.put("kustomization.yaml", kustomization.toString());
        folder.put(INSTALL_FILE, install.toString());
        return folder;
    }

    /**
     * The files as one YAML stream for standard output: {@link #INSTALL_FILE}, every object with its
     * values (the kustomize folder's copies hold variables only kustomize resolves), ready for
     * {@code kubectl apply -f -}.
     */
    static String stream(Map<String, String> files) {
        return files.get(INSTALL_FILE);
    }

    /** What the generation left out and why, as the comment lines at the top of {@code kustomization.yaml} say. */
    public static List<String> notes(Map<String, String> files) {
        String kustomization = files.getOrDefault("kustomization.yaml", "");
        return kustomization.lines().takeWhile(line -> line.startsWith("# ")).map(line -> line.substring(2)).toList();
    }

    private static String webhooks(List<Class<?>> policies, List<Class<?>> classes, Options options,
            Map<String, String> environment) throws IOException {
        String name = options.name();
        String namespace = options.namespace();
        Certificates.Mode mode = options.certificateMode(environment);
        String ca = mode != Certificates.Mode.GIVEN || options.injectCaFrom() != null ? null
                : options.caFile() != null ? options.caFile() : environment.get("MOORING_WEBHOOK_CA_FILE");
        String injectCaFrom = mode == Certificates.Mode.CERT_MANAGER ? namespace + "/" + Certificates.certificateName(name)
                : options.injectCaFrom();
        List<WebhookConfigurations.ControllerScope> controllers = new ArrayList<>();
        for (Class<?> type : classes) {
            ControllerOptions.offline(type, namespace).map(WebhookConfigurations.ControllerScope::of).ifPresent(controllers::addAll);
        }
        // webhook names must be qualified: the Service's own DNS name is, and belongs to this operator alone
        WebhookConfigurations.Target target = new WebhookConfigurations.Target(name + "." + namespace + ".svc", name, namespace, 443,
                ca == null ? null : Files.readAllBytes(Path.of(ca)), injectCaFrom);
        return WebhookConfigurations.toYaml(WebhookConfigurations.of(AdmissionRoutes.of(policies), controllers, namespace,
                options.webhooksAdmitOperator() ? target.admittingTheOperator() : target));
    }

    private static jakarta.json.JsonObject namespace(Options options) {
        return jakarta.json.Json.createObjectBuilder().add("apiVersion", "v1").add("kind", "Namespace")
                .add("metadata", jakarta.json.Json.createObjectBuilder().add("name", options.namespace())
                        .add("labels", jakarta.json.Json.createObjectBuilder().add("app.kubernetes.io/part-of", options.name())
                                .add("app.kubernetes.io/managed-by", "mooring")))
                .build();
    }

    private static int replicas(Map<String, String> options) {
        return wholeNumber(options, "--replicas", "0");
    }

    private static int wholeNumber(Map<String, String> options, String flag, String defaultValue) {
        String value = options.getOrDefault(flag, defaultValue);
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option(flag) + " must be a whole number, not '" + value + "'");
        }
    }

    private static Map<String, String> options(List<String> args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (VALUED.contains(arg)) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(option(arg) + " needs a value");
                }
                options.put(arg, args.get(++i));
            } else if (arg.startsWith("--") && !FLAGS.contains(arg)) {
                throw new IllegalArgumentException("unknown option " + arg + " (options: " + String.join(", ", VALUED)
                        + ", " + String.join(", ", FLAGS) + ")");
            }
        }
        return options;
    }
}
