package dev.mooring.examples.admission;

import dev.mooring.api.RbacRule;
import dev.mooring.api.admission.AdmissionCache;
import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.Validating;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Pod;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Pattern "admission with informer reads": no new Pods in a frozen namespace. The namespace is
 * read from this replica's cache; a namespace created a moment ago may not be there yet, so a
 * miss falls back to a live read.
 */
@ApplicationScoped
@AdmissionCache(V1Namespace.class)
@RbacRule(resources = "namespaces", verbs = "get", cluster = true)   // the live fallback read
public class PodPolicy {

    /** A namespace labelled {@code policy.mooring.dev/frozen=true} admits no new Pods. */
    public static final String FROZEN = "policy.mooring.dev/frozen";

    /** Called for namespaces that carry the label at all (true or false), in any namespace of the cluster. */
    @Validating(operations = Operation.CREATE, namespaceSelector = FROZEN)
    void notInFrozenNamespace(AdmissionRequest<V1Pod> request) throws AdmissionDenied {
        Optional<V1Namespace> namespace = request.cached(V1Namespace.class).get(null, request.namespace())
                .or(() -> request.client().get(V1Namespace.class, null, request.namespace()));
        if (namespace.map(ns -> ns.getMetadata().getLabels()).map(labels -> "true".equals(labels.get(FROZEN))).orElse(false)) {
            throw new AdmissionDenied("namespace " + request.namespace() + " is frozen: no new Pods");
        }
    }
}
