package dev.mooring.manifests;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Map;

/**
 * What lets the kustomize folder follow an overlay's {@code namespace:} and {@code namePrefix:}:
 * kustomize itself follows every object's namespace, the Namespace object's name, the
 * webhooks' Service, the RoleBindings' subjects and the names of the objects the folder holds; the
 * strings that only contain the namespace or the operator's name (the webhook configurations'
 * names, the webhooks' names and their {@code matchConditions}, the namespace selectors, the
 * ClusterRole's {@code resourceNames} of the webhook configurations, cert-manager's DNS names and
 * CA injection, the ServiceMonitor's namespace, the certificate settings in the Deployment's
 * environment) hold the variables {@value #NAMESPACE} and {@value #NAME} instead, which kustomize
 * resolves from the operator's ServiceAccount after the overlay's transformers have run.
 *
 * <p>Variables ({@code vars}) and not {@code replacements}: kustomize applies a base's
 * replacements (and a component's) before the overlay's namespace and prefix, so they would copy
 * the base's namespace; it resolves every variable at the end of the whole build. {@code install.yaml}
 * holds the resolved values.
 */
final class KustomizeFolder {

    /** The operator's namespace, as the overlay makes it. */
    static final String NAMESPACE = "$(OPERATOR_NAMESPACE)";
    /** The operator's name (its ServiceAccount's, Service's and webhook configurations'), with the overlay's prefix. */
    static final String NAME = "$(OPERATOR_NAME)";

    /** Where the variables are used, beside kustomize's own places (containers' environment, annotations). */
    static final String CONFIGURATIONS_FILE = "kustomizeconfig.yaml";

    private static final List<String> WEBHOOK_KINDS = List.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration");
    private static final List<String> CERTIFICATE_SETTINGS = List.of("MOORING_WEBHOOK_CERTIFICATES_SERVICE",
            "MOORING_WEBHOOK_CERTIFICATES_SERVICE_ACCOUNT", "MOORING_WEBHOOK_CERTIFICATES_WEBHOOK_CONFIGURATION");

    private KustomizeFolder() {
    }

    /** The kustomization's lines that declare the variables and where they are used. */
    static String kustomization(String name) {
        return "configurations:\n  - " + CONFIGURATIONS_FILE + "\nvars:\n"
                + variable("OPERATOR_NAMESPACE", name, "metadata.namespace") + variable("OPERATOR_NAME", name, "metadata.name");
    }

    private static String variable(String variable, String account, String field) {
        return "  - name: " + variable + "\n    objref:\n      apiVersion: v1\n      kind: ServiceAccount\n      name: " + account
                + "\n    fieldref:\n      fieldpath: " + field + "\n";
    }

    /** {@value #CONFIGURATIONS_FILE}: the fields the variables are in, and cert-manager's Issuer referenced by name. */
    static String configurations() {
        StringBuilder text = new StringBuilder("# Where mooring:manifests put $(OPERATOR_NAMESPACE) and $(OPERATOR_NAME) (see kustomization.yaml)\n"
                + "varReference:\n");
        for (String kind : WEBHOOK_KINDS) {
            for (String path : List.of("metadata/name", "metadata/annotations", "webhooks/name", "webhooks/matchConditions/expression",
                    "webhooks/namespaceSelector/matchExpressions/values")) {
                text.append("  - kind: ").append(kind).append("\n    path: ").append(path).append('\n');
            }
        }
        text.append("  - kind: ClusterRole\n    path: rules/resourceNames\n")
                .append("  - kind: Role\n    path: rules/resourceNames\n")
                .append("  - kind: Certificate\n    path: spec/dnsNames\n")
                .append("  - kind: ServiceMonitor\n    path: spec/namespaceSelector/matchNames\n")
                .append("nameReference:\n  - kind: Issuer\n    fieldSpecs:\n      - kind: Certificate\n        path: spec/issuerRef/name\n");
        return text.toString();
    }

    /** The YAML documents of a generated file, each {@link #withVariables(JsonObject, String, String) with the variables}. */
    static String withVariables(String yaml, String name, String namespace, boolean certificateMade) {
        List<JsonObject> objects = new java.util.ArrayList<>();
        com.google.gson.Gson gson = new com.google.gson.Gson();
        for (Object document : new org.yaml.snakeyaml.Yaml(new org.yaml.snakeyaml.constructor.SafeConstructor(
                new org.yaml.snakeyaml.LoaderOptions())).loadAll(yaml)) {
            if (document != null) {
                try (jakarta.json.JsonReader reader = Json.createReader(new java.io.StringReader(gson.toJson(document)))) {
                    objects.add(withVariables(reader.readObject(), name, namespace, certificateMade));
                }
            }
        }
        return Yaml.of(objects);
    }

    /**
     * {@code object} with the variables where it holds the namespace or the operator's name in a
     * string (see the class); cert-manager's CA injection only from the Certificate the generation
     * made ({@code certificateMade}), not from one made elsewhere.
     */
    static JsonObject withVariables(JsonObject object, String name, String namespace, boolean certificateMade) {
        String kind = object.getString("kind", "");
        String service = name + "." + namespace + ".svc";
        Map<String, String> exact;
        if (WEBHOOK_KINDS.contains(kind)) {
            exact = new java.util.HashMap<>(Map.of(service, name + "." + NAMESPACE + ".svc", namespace, NAMESPACE));
            if (certificateMade) {
                exact.put(namespace + "/" + Certificates.certificateName(name),
                        NAMESPACE + "/" + NAME + Certificates.certificateName(name).substring(name.length()));
            }
        } else if (kind.equals("ClusterRole") || kind.equals("Role")) {
            return rules(object, Map.of("mutatingwebhookconfigurations", Map.of(service, NAME + "." + NAMESPACE + ".svc"),
                    "validatingwebhookconfigurations", Map.of(service, NAME + "." + NAMESPACE + ".svc"),
                    "secrets", Map.of(Certificates.secretName(name), NAME + Certificates.secretName(name).substring(name.length())),
                    "serviceaccounts", Map.of(name, NAME)));
        } else if (kind.equals("Certificate")) {
            exact = Map.of(service, NAME + "." + NAMESPACE + ".svc", service + ".cluster.local", NAME + "." + NAMESPACE + ".svc.cluster.local");
        } else if (kind.equals("ServiceMonitor")) {
            exact = Map.of(namespace, NAMESPACE);
        } else if (kind.equals("Deployment")) {
            return (JsonObject) environment(object, Map.of(name, NAME, service, NAME + "." + NAMESPACE + ".svc"), "");
        } else {
            return object;
        }
        return (JsonObject) rewrite(object, kind, "", exact, name, namespace);
    }

    /** Rewrites the strings of {@code value} at {@code path} (keys joined by '/', list positions left out). */
    private static JsonValue rewrite(JsonValue value, String kind, String path, Map<String, String> exact, String name, String namespace) {
        switch (value.getValueType()) {
            case OBJECT -> {
                JsonObjectBuilder builder = Json.createObjectBuilder();
                ((JsonObject) value).forEach((key, member) -> builder.add(key,
                        rewrite(member, kind, path.isEmpty() ? key : path + "/" + key, exact, name, namespace)));
                return builder.build();
            }
            case ARRAY -> {
                JsonArrayBuilder builder = Json.createArrayBuilder();
                ((JsonArray) value).forEach(item -> builder.add(rewrite(item, kind, path, exact, name, namespace)));
                return builder.build();
            }
            case STRING -> {
                return Json.createValue(rewritten(((JsonString) value).getString(), kind, path, exact, name, namespace));
            }
            default -> {
                return value;
            }
        }
    }

    private static String rewritten(String text, String kind, String path, Map<String, String> exact, String name, String namespace) {
        String suffix = "." + name + "." + namespace + ".svc";
        boolean webhook = WEBHOOK_KINDS.contains(kind);
        if (webhook && path.equals("webhooks/name") && text.endsWith(suffix)) {
            return text.substring(0, text.length() - suffix.length()) + "." + NAME + "." + NAMESPACE + ".svc";
        }
        if (webhook && path.equals("webhooks/matchConditions/expression")) {
            return text.replace("'system:serviceaccount:" + namespace + ":" + name + "'", "'system:serviceaccount:" + NAMESPACE + ":" + NAME + "'")
                    .replace("request.namespace == '" + namespace + "'", "request.namespace == '" + NAMESPACE + "'");
        }
        boolean followed = switch (kind) {
            case "Certificate" -> path.equals("spec/dnsNames");
            case "ServiceMonitor" -> path.equals("spec/namespaceSelector/matchNames");
            default -> webhook && (path.equals("metadata/name") || path.equals("metadata/annotations/cert-manager.io/inject-ca-from")
                    || path.equals("webhooks/namespaceSelector/matchExpressions/values"));
        };
        return followed ? exact.getOrDefault(text, text) : text;
    }

    /**
     * The role with the names in its rules' {@code resourceNames} that name the operator's own
     * objects ({@code byResource}: by the rule's resource, the name and its variable form); the
     * Lease's name, which the Deployment's environment sets, stays.
     */
    private static JsonObject rules(JsonObject role, Map<String, Map<String, String>> byResource) {
        if (!(role.get("rules") instanceof JsonArray rules)) {
            return role;
        }
        JsonArrayBuilder rewritten = Json.createArrayBuilder();
        for (JsonValue value : rules) {
            if (value instanceof JsonObject rule && rule.get("resources") instanceof JsonArray resources
                    && rule.get("resourceNames") instanceof JsonArray names) {
                JsonArrayBuilder followed = Json.createArrayBuilder();
                for (JsonValue item : names) {
                    String text = item instanceof JsonString string ? string.getString() : null;
                    String variable = resources.stream().filter(JsonString.class::isInstance).map(resource -> byResource.getOrDefault(
                            ((JsonString) resource).getString(), Map.of()).get(text)).filter(java.util.Objects::nonNull).findFirst().orElse(null);
                    followed.add(variable == null ? item : Json.createValue(variable));
                }
                rewritten.add(Json.createObjectBuilder(rule).add("resourceNames", followed));
            } else {
                rewritten.add(value);
            }
        }
        return Json.createObjectBuilder(role).add("rules", rewritten).build();
    }

    /** The Deployment with the certificate settings of its containers' environment as variables. */
    private static JsonValue environment(JsonValue value, Map<String, String> exact, String path) {
        switch (value.getValueType()) {
            case OBJECT -> {
                JsonObject object = (JsonObject) value;
                if (path.endsWith("containers/env") && CERTIFICATE_SETTINGS.contains(object.getString("name", ""))
                        && object.get("value") instanceof JsonString setting && exact.containsKey(setting.getString())) {
                    return Json.createObjectBuilder(object).add("value", exact.get(setting.getString())).build();
                }
                JsonObjectBuilder builder = Json.createObjectBuilder();
                object.forEach((key, member) -> builder.add(key, environment(member, exact, path.isEmpty() ? key : path + "/" + key)));
                return builder.build();
            }
            case ARRAY -> {
                JsonArrayBuilder builder = Json.createArrayBuilder();
                ((JsonArray) value).forEach(item -> builder.add(environment(item, exact, path)));
                return builder.build();
            }
            default -> {
                return value;
            }
        }
    }
}
