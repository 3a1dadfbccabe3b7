package dev.mooring.examples.admission;

import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Validating;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Objects;

/**
 * Pattern "admission on someone else's CRD": compares the UPDATE snapshots of a Database. The
 * engine cannot change and storage cannot shrink. No controller, no CRD ownership.
 */
@ApplicationScoped
public class DatabasePolicy {

    @Validating
    void checkChange(AdmissionRequest<Database> request) throws AdmissionDenied {
        Database.Spec spec = Objects.requireNonNullElseGet(request.object().getSpec(), Database.Spec::new);
        if (spec.storageGb == null || spec.storageGb < 1) {
            throw new AdmissionDenied(422, "spec.storageGb must be at least 1");
        }
        Database.Spec before = request.oldObject().map(Database::getSpec).orElse(null);
        if (before == null) {
            return;
        }
        if (!Objects.equals(before.engine, spec.engine)) {
            throw new AdmissionDenied(422, "spec.engine is immutable: " + before.engine + " cannot become " + spec.engine);
        }
        if (before.storageGb != null && spec.storageGb < before.storageGb) {
            throw new AdmissionDenied(422, "spec.storageGb cannot shrink from " + before.storageGb + " to " + spec.storageGb);
        }
    }
}
