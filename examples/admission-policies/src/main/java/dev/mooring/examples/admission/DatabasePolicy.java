package dev.mooring.examples.admission;

import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Mutating;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.Validating;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Objects;

/**
 * Pattern "admission on someone else's CRD": compares the UPDATE snapshots of a Database. The
 * engine cannot change and storage cannot shrink; a new Database without an engine gets
 * {@code postgres}. No controller, no CRD ownership: the model declares only the fields the
 * policy reads, and the mutation leaves every other field as it was sent.
 */
@ApplicationScoped
public class DatabasePolicy {

    @Mutating(operations = Operation.CREATE)
    Database defaultEngine(AdmissionRequest<Database> request) {
        Database database = request.object();
        if (database.getSpec() == null || database.getSpec().engine != null) {
            return null;
        }
        database.getSpec().engine = "postgres";
        return database;
    }

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
