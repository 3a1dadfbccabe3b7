package ${package};

import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Operation;
import dev.mooring.api.admission.Validating;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Objects;

/**
 * What the CRD's schema cannot say: a ${kind}'s language cannot change. The API server calls
 * this webhook for every update of a ${kind}; the CRD's schema has already checked the fields.
 */
@ApplicationScoped
public class ${kind}Validator {

    @Validating(operations = Operation.UPDATE)
    void languageIsImmutable(AdmissionRequest<${kind}> request) throws AdmissionDenied {
        String before = request.oldObject().map(resource -> resource.getSpec().language).orElse(null);
        String after = request.object().getSpec().language;
        if (before != null && !Objects.equals(before, after)) {
            throw new AdmissionDenied(422, "spec.language is immutable: " + before + " cannot become " + after);
        }
    }
}
