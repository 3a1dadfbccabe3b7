package dev.mooring.it.monitoring;

import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Validating;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.logging.Logger;

/** Refuses ConfigMaps named {@code bad-*}: a webhook for MonitoringIT's admission series and log fields. */
@ApplicationScoped
public class NamePolicy {

    private static final Logger LOG = Logger.getLogger(NamePolicy.class.getName());

    @Validating
    void names(AdmissionRequest<V1ConfigMap> request) throws AdmissionDenied {
        LOG.info("NamePolicy checks " + request.object().getMetadata().getName());
        if (request.object().getMetadata().getName().startsWith("bad-")) {
            throw new AdmissionDenied("names starting with bad- are refused");
        }
    }
}
