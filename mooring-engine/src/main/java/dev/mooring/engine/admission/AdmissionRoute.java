package dev.mooring.engine.admission;

import dev.mooring.api.admission.FailurePolicy;
import dev.mooring.api.admission.Operation;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;

/**
 * One validated admission webhook: where it is served, what it admits and how the API server
 * calls it.
 *
 * @param path the served path, such as {@code /validate/apps/v1/deployments/require-team}
 * @param mutating true for a {@code @Mutating} method
 * @param method the bean method
 * @param requestModel the model of the request's objects ({@code V1Scale} for {@code deployments/scale})
 * @param requestKind the kind the request's objects must have; null when the model is
 *     {@code DynamicKubernetesObject} (any kind)
 * @param rule what it admits: the webhook's rule
 * @param call how the API server calls it
 */
public record AdmissionRoute(String path, boolean mutating, Method method, Class<? extends KubernetesObject> requestModel,
        ResourceType<?> requestKind, Rule rule, Call call) {

    public AdmissionRoute {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(requestModel, "requestModel");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(call, "call");
    }

    /**
     * What a webhook admits (a {@code RuleWithOperations}).
     *
     * @param target the admitted resource: its group, version, plural and scope name the webhook rule
     * @param plural the resource plural of the rule (the target's unless overridden)
     * @param subresource the subresource, or empty
     * @param operations the admitted operations, in declaration order
     */
    public record Rule(ResourceType<?> target, String plural, String subresource, List<Operation> operations) {

        public Rule {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(plural, "plural");
            Objects.requireNonNull(subresource, "subresource");
            operations = List.copyOf(operations);
        }

        /** The rule's resource: {@code plural} or {@code plural/subresource}. */
        public String resource() {
            return subresource.isEmpty() ? plural : plural + "/" + subresource;
        }
    }

    /**
     * How the API server calls a webhook.
     *
     * @param namespaceSelector the explicit namespace selector, or null to follow the controller scope
     * @param timeoutSeconds 1–30
     * @param failurePolicy what the API server does when the webhook cannot answer
     */
    public record Call(V1LabelSelector namespaceSelector, int timeoutSeconds, FailurePolicy failurePolicy) {
    }

    /** The bean class declaring the method. */
    public Class<?> beanClass() {
        return method.getDeclaringClass();
    }

    /** {@code Bean.method}, for messages. */
    public String describe() {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }
}
