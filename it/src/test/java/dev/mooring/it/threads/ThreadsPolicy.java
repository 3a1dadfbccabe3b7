package dev.mooring.it.threads;

import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.Validating;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;

/** ThreadsIT's webhook: denies a ConfigMap that has a {@code deny} key, naming it, so that the answer is provably the method's. */
@ApplicationScoped
public class ThreadsPolicy {

    @Validating(operations = Operation.CREATE)
    void check(AdmissionRequest<V1ConfigMap> request) throws AdmissionDenied {
        if (request.object().getData() != null && request.object().getData().containsKey("deny")) {
            throw new AdmissionDenied("ThreadsPolicy denies " + request.name());
        }
    }
}
