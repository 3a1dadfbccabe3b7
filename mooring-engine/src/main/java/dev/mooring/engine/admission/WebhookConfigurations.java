package dev.mooring.engine.admission;

import com.google.gson.reflect.TypeToken;
import dev.mooring.engine.kube.Kinds;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1ServiceReference;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1MatchCondition;
import io.kubernetes.client.openapi.models.V1MutatingWebhook;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RuleWithOperations;
import io.kubernetes.client.openapi.models.V1ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The {@code admissionregistration.k8s.io/v1} configurations that make the API server call an
 * operator's admission routes, generated offline (no API server, no kubeconfig).
 *
 * <p>One MutatingWebhookConfiguration and one ValidatingWebhookConfiguration, each named after
 * the operator and present only when it has webhooks. Webhook {@code i} (the route's position
 * among all routes) is named {@code mutate-<i>.<operator>} or {@code validate-<i>.<operator>}
 * and carries {@code admissionReviewVersions: [v1]}, {@code sideEffects: None},
 * {@code matchPolicy: Equivalent} (a request made through another version of the resource is sent
 * too, converted to the route's version), the route's failure policy and timeout, a service
 * reference to the operator's Service with the route's path, the CA bundle, and (mutating only)
 * {@code reinvocationPolicy: Never}.
 *
 * <p>Match conditions keep the operator from blocking itself when its webhooks cannot answer
 * (its pod not serving, a bad rollout): {@code not-the-operator} leaves out the requests of the
 * operator's own ServiceAccount (the Service's name in its namespace, as the generated manifests
 * name both), unless {@link Target#admitOperator()}; and a webhook on Pods, Deployments or
 * ReplicaSets gets {@code not-the-operators-workload}, which leaves out those of the operator's
 * namespace labelled {@code app.kubernetes.io/name=<service name>}, so that a broken webhook cannot
 * block the repair of the operator itself.
 *
 * <p>Namespace selectors: a route's explicit selector; none for cluster-scoped kinds; for a
 * namespaced kind with a controller, the namespaces its controllers watch (none when one watches
 * all namespaces); for a namespaced kind without a controller, the operator's namespace.
 */
public final class WebhookConfigurations {

    private static final Pattern DNS_SUBDOMAIN = Pattern.compile(
            "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");
    private static final Pattern DNS_LABEL = Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
    private static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

    /**
     * The scope of one controller, for the default namespace selectors.
     *
     * @param kind the controller's primary kind
     * @param namespace the namespace it watches; null for all namespaces
     */
    public record ControllerScope(Class<? extends KubernetesObject> kind, String namespace) {

        /** The scopes of a controller: one per namespace it watches at start (one with a null namespace for all). */
        public static List<ControllerScope> of(dev.mooring.engine.model.ControllerDefinition definition) {
            return definition.scopes().stream().map(scope -> new ControllerScope(definition.kind(), scope)).toList();
        }
    }

    /**
     * What the configurations point at.
     *
     * @param name the operator's name, a DNS subdomain with a domain (such as {@code widgets.example.com})
     * @param serviceName the operator's Service
     * @param serviceNamespace the Service's namespace, which is also the operator's namespace
     * @param servicePort the Service port in front of the HTTPS port (443 by default)
     * @param caBundle PEM certificates of the CA that signed the serving certificate, or null
     * @param injectCaFrom the cert-manager Certificate ({@code namespace/name}) whose CA cert-manager's CA injector
     *     writes into the configurations, or null; with neither, the operator writes the bundle itself
     *     ({@code mooring.webhook.certificates=self-managed})
     * @param admitOperator true to send the operator's own requests to its webhooks too (by default they are left out)
     */
    public record Target(String name, String serviceName, String serviceNamespace, int servicePort, byte[] caBundle,
            String injectCaFrom, boolean admitOperator) {

        /** A target with a CA bundle of its own. */
        public Target(String name, String serviceName, String serviceNamespace, int servicePort, byte[] caBundle) {
            this(name, serviceName, serviceNamespace, servicePort, caBundle, null);
        }

        /** A target whose webhooks leave the operator's own requests out. */
        public Target(String name, String serviceName, String serviceNamespace, int servicePort, byte[] caBundle,
                String injectCaFrom) {
            this(name, serviceName, serviceNamespace, servicePort, caBundle, injectCaFrom, false);
        }

        /** This target, with the operator's own requests sent to its webhooks too. */
        public Target admittingTheOperator() {
            return new Target(name, serviceName, serviceNamespace, servicePort, caBundle, injectCaFrom, true);
        }

        /**
         * @throws IllegalArgumentException naming the value that Kubernetes would refuse
         */
        public Target {
            Objects.requireNonNull(name, "name");
            if (name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches() || name.endsWith(".static.k8s.io")) {
                throw new IllegalArgumentException("The operator name '" + name + "' must be a DNS subdomain (not ending in"
                        + " .static.k8s.io) for webhook configuration names");
            }
            if (!name.contains(".")) {
                throw new IllegalArgumentException("Webhook names need a domain: the operator name '" + name
                        + "' must include one, such as " + name + ".example.com");
            }
            if (serviceName == null || !DNS_LABEL.matcher(serviceName).matches() || serviceNamespace == null
                    || !DNS_LABEL.matcher(serviceNamespace).matches()) {
                throw new IllegalArgumentException("The webhook Service name and namespace must be DNS labels, not '"
                        + serviceName + "' and '" + serviceNamespace + "'");
            }
            if (servicePort < 1 || servicePort > 65535) {
                throw new IllegalArgumentException("The webhook Service port must be between 1 and 65535, not " + servicePort);
            }
            if (caBundle != null && injectCaFrom != null) {
                throw new IllegalArgumentException("Give the webhook configurations either a CA bundle or a cert-manager"
                        + " Certificate to inject one from, not both");
            }
            if (injectCaFrom != null && !injectCaFrom.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?/[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
                throw new IllegalArgumentException("inject-ca-from must name a cert-manager Certificate as namespace/name, not '"
                        + injectCaFrom + "'");
            }
            if (caBundle != null && !new String(caBundle, StandardCharsets.US_ASCII).contains("-----BEGIN CERTIFICATE-----")) {
                throw new IllegalArgumentException("The webhook CA bundle must contain PEM certificates"
                        + " (-----BEGIN CERTIFICATE-----)");
            }
            caBundle = caBundle == null ? null : caBundle.clone();
        }
    }

    private WebhookConfigurations() {
    }

    /**
     * The configurations for these routes: the mutating one first, each only when it has webhooks.
     *
     * @param routes the operator's routes, in registration order
     * @param controllers the scopes of the operator's controllers
     * @param operatorNamespace the operator's namespace ({@code mooring.namespace}), the default
     *     scope of namespaced kinds without a controller; usually the Service's namespace
     * @param target the operator's name and Service
     */
    public static List<KubernetesObject> of(List<AdmissionRoute> routes, List<ControllerScope> controllers,
            String operatorNamespace, Target target) {
        AdmissionRoutes.requireUniquePaths(routes);
        List<V1MutatingWebhook> mutating = new ArrayList<>();
        List<V1ValidatingWebhook> validating = new ArrayList<>();
        for (int index = 0; index < routes.size(); index++) {
            AdmissionRoute route = routes.get(index);
            V1RuleWithOperations rule = new V1RuleWithOperations()
                    .apiGroups(List.of(route.rule().target().group()))
                    .apiVersions(List.of(route.rule().target().version()))
                    .resources(List.of(route.rule().resource()))
                    .operations(route.rule().operations().stream().map(Enum::name).toList())
                    .scope(route.rule().target().namespaced() ? "Namespaced" : "Cluster");
            AdmissionregistrationV1WebhookClientConfig client = new AdmissionregistrationV1WebhookClientConfig()
                    .service(new AdmissionregistrationV1ServiceReference().name(target.serviceName())
                            .namespace(target.serviceNamespace()).path(route.path()).port(target.servicePort()))
                    .caBundle(target.caBundle());
            V1LabelSelector selector = namespaceSelector(route, controllers, operatorNamespace);
            List<V1MatchCondition> conditions = matchConditions(route, target);
            if (route.mutating()) {
                mutating.add(new V1MutatingWebhook().name("mutate-" + index + "." + target.name())
                        .admissionReviewVersions(List.of("v1")).sideEffects("None").matchPolicy("Equivalent")
                        .failurePolicy(route.call().failurePolicy().wireName()).timeoutSeconds(route.call().timeoutSeconds())
                        .reinvocationPolicy("Never").clientConfig(client).rules(List.of(rule)).namespaceSelector(selector)
                        .matchConditions(conditions));
            } else {
                validating.add(new V1ValidatingWebhook().name("validate-" + index + "." + target.name())
                        .admissionReviewVersions(List.of("v1")).sideEffects("None").matchPolicy("Equivalent")
                        .failurePolicy(route.call().failurePolicy().wireName()).timeoutSeconds(route.call().timeoutSeconds())
                        .clientConfig(client).rules(List.of(rule)).namespaceSelector(selector).matchConditions(conditions));
            }
        }
        List<KubernetesObject> configurations = new ArrayList<>();
        if (!mutating.isEmpty()) {
            configurations.add(new V1MutatingWebhookConfiguration().apiVersion("admissionregistration.k8s.io/v1")
                    .kind("MutatingWebhookConfiguration").metadata(metadata(target)).webhooks(mutating));
        }
        if (!validating.isEmpty()) {
            configurations.add(new V1ValidatingWebhookConfiguration().apiVersion("admissionregistration.k8s.io/v1")
                    .kind("ValidatingWebhookConfiguration").metadata(metadata(target)).webhooks(validating));
        }
        return configurations;
    }

    /** The kinds the operator's own workload is made of: what {@code not-the-operators-workload} guards. */
    private static final java.util.Set<String> WORKLOAD = java.util.Set.of("/pods", "apps/deployments", "apps/replicasets");

    /** See the class description. The names are DNS labels (checked by {@link Target}), safe inside CEL strings. */
    private static List<V1MatchCondition> matchConditions(AdmissionRoute route, Target target) {
        List<V1MatchCondition> conditions = new ArrayList<>();
        if (!target.admitOperator()) {
            conditions.add(new V1MatchCondition().name("not-the-operator").expression("request.userInfo.username != "
                    + "'system:serviceaccount:" + target.serviceNamespace() + ":" + target.serviceName() + "'"));
        }
        if (WORKLOAD.contains(route.rule().target().group() + "/" + route.rule().plural()) && route.rule().subresource().isEmpty()) {
            conditions.add(new V1MatchCondition().name("not-the-operators-workload").expression("!(request.namespace == '"
                    + target.serviceNamespace() + "' && [object, oldObject].exists(o, o != null && has(o.metadata)"
                    + " && has(o.metadata.labels) && 'app.kubernetes.io/name' in o.metadata.labels"
                    + " && o.metadata.labels['app.kubernetes.io/name'] == '" + target.serviceName() + "'))"));
        }
        return conditions;
    }

    /** The configurations' name, and cert-manager's CA injection annotation when the CA comes from it. */
    private static V1ObjectMeta metadata(Target target) {
        V1ObjectMeta metadata = new V1ObjectMeta().name(target.name());
        if (target.injectCaFrom() != null) {
            metadata.putAnnotationsItem("cert-manager.io/inject-ca-from", target.injectCaFrom());
        }
        return metadata;
    }

    /**
     * Multi-document YAML of the objects, with the field names and order of their JSON form,
     * without empty collections or nulls, and without anchors or aliases.
     */
    public static String toYaml(List<? extends KubernetesObject> objects) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndicatorIndent(2);
        options.setIndentWithIndicator(true);
        Yaml yaml = new Yaml(options);
        StringBuilder out = new StringBuilder();
        for (KubernetesObject object : objects) {
            Map<String, Object> tree = JSON.getGson().fromJson(JSON.serialize(object),
                    new TypeToken<LinkedHashMap<String, Object>>() { }.getType());
            out.append("---\n").append(yaml.dump(integral(tree)));
        }
        return out.toString();
    }

    private static V1LabelSelector namespaceSelector(AdmissionRoute route, List<ControllerScope> controllers,
            String operatorNamespace) {
        if (route.call().namespaceSelector() != null) {
            return route.call().namespaceSelector();
        }
        if (!route.rule().target().namespaced()) {
            return null;
        }
        ResourceType<?> target = route.rule().target();
        TreeSet<String> namespaces = new TreeSet<>();
        boolean controlled = false;
        for (ControllerScope controller : controllers) {
            ResourceType<?> kind = Kinds.offline().resolve(controller.kind());
            if (kind.group().equals(target.group()) && kind.kind().equals(target.kind())) {
                controlled = true;
                if (controller.namespace() == null) {
                    return null;
                }
                namespaces.add(controller.namespace());
            }
        }
        if (!controlled) {
            namespaces.add(operatorNamespace);
        }
        return new V1LabelSelector().addMatchExpressionsItem(new V1LabelSelectorRequirement().key(NAMESPACE_NAME_LABEL)
                .operator("In").values(List.copyOf(namespaces)));
    }

    /** Gson reads every JSON number as a double; ports and timeouts are integers. */
    @SuppressWarnings("unchecked")
    private static Object integral(Object value) {
        if (value instanceof Map<?, ?> map) {
            // empty collections and nulls are left out (client-java's models carry empty ones: finalizers, labels)
            Map<String, Object> copy = new LinkedHashMap<>();
            ((Map<String, Object>) map).forEach((key, item) -> {
                Object converted = integral(item);
                if (converted != null && !(converted instanceof Map<?, ?> m && m.isEmpty())
                        && !(converted instanceof List<?> l && l.isEmpty())) {
                    copy.put(key, converted);
                }
            });
            return copy;
        }
        if (value instanceof List<?> list) {
            // a new list each time: SnakeYAML writes a shared instance as an &anchor and *alias
            return new java.util.ArrayList<>(list.stream().map(WebhookConfigurations::integral).toList());
        }
        if (value instanceof Double number && number == Math.rint(number) && !Double.isInfinite(number)) {
            return number.longValue();
        }
        return value;
    }
}
