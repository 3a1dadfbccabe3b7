package dev.mooring.it.badpolicy;

import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Validating;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;

/** An admission bean with an option the API server would refuse: its deployment must fail. */
@ApplicationScoped
public class BadPolicy {

    @Validating(timeoutSeconds = 31)
    void check(AdmissionRequest<V1ConfigMap> request) {
    }
}
