package dev.mooring.examples.admission;

import dev.mooring.api.RbacRule;
import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Mutating;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.Validating;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Scale;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Pattern "admission on existing built-in kinds": Deployments get a team label from their
 * namespace (read live), keep it for life, cannot be deleted while protected, and cannot be
 * scaled through {@code /scale} beyond their namespace's limit.
 */
@ApplicationScoped
@RbacRule(resources = "namespaces", verbs = "get", cluster = true)   // the live Namespace read below
public class DeploymentPolicy {

    /** The team label; defaulted on create, immutable afterwards. */
    public static final String TEAM = "policy.mooring.dev/team";
    /** A Deployment labelled {@code policy.mooring.dev/protected=true} cannot be deleted. */
    public static final String PROTECTED = "policy.mooring.dev/protected";
    /** A namespace annotation capping replicas set through {@code /scale} (default 10). */
    public static final String MAX_REPLICAS = "policy.mooring.dev/max-replicas";

    /** Defaults the team label to the namespace's {@code team} label, else {@code unassigned}. */
    @Mutating(operations = Operation.CREATE)
    V1Deployment defaultTeam(AdmissionRequest<V1Deployment> request) {
        V1Deployment deployment = request.object();
        if (labels(deployment.getMetadata().getLabels()).containsKey(TEAM)) {
            return null;
        }
        String team = namespace(request).map(ns -> labels(ns.getMetadata().getLabels()).get("team")).orElse("unassigned");
        deployment.getMetadata().putLabelsItem(TEAM, team);
        return deployment;
    }

    /** The team label cannot change or disappear. */
    @Validating(operations = Operation.UPDATE)
    void keepTeam(AdmissionRequest<V1Deployment> request) throws AdmissionDenied {
        String before = labels(request.oldObject().orElseThrow().getMetadata().getLabels()).get(TEAM);
        String after = labels(request.object().getMetadata().getLabels()).get(TEAM);
        if (before != null && !before.equals(after)) {
            throw new AdmissionDenied("label " + TEAM + " is immutable (was " + before + ")");
        }
    }

    /** A protected Deployment cannot be deleted. */
    @Validating(operations = Operation.DELETE)
    void protect(AdmissionRequest<V1Deployment> request) throws AdmissionDenied {
        if ("true".equals(labels(request.oldObject().orElseThrow().getMetadata().getLabels()).get(PROTECTED))) {
            throw new AdmissionDenied("Deployment " + request.name() + " is protected; remove " + PROTECTED + " first");
        }
    }

    /** {@code kubectl scale} sends an autoscaling/v1 Scale to deployments/scale, not a Deployment. */
    @Validating(target = V1Deployment.class, subresource = "scale", operations = Operation.UPDATE)
    void limitReplicas(AdmissionRequest<V1Scale> request) throws AdmissionDenied {
        int replicas = Objects.requireNonNullElse(request.object().getSpec().getReplicas(), 0);
        int max = namespace(request)
                .map(ns -> ns.getMetadata().getAnnotations() == null ? null : ns.getMetadata().getAnnotations().get(MAX_REPLICAS))
                .map(Integer::parseInt).orElse(10);
        if (replicas > max) {
            throw new AdmissionDenied(422, "spec.replicas: " + replicas + " exceeds the namespace limit of " + max);
        }
        if (replicas == 0) {
            request.warn("Deployment " + request.name() + " is scaled to zero");
        }
    }

    private static Optional<V1Namespace> namespace(AdmissionRequest<?> request) {
        return request.client().get(V1Namespace.class, null, request.namespace());
    }

    private static Map<String, String> labels(Map<String, String> labels) {
        return labels == null ? Map.of() : labels;
    }
}
