package dev.mooring.examples.snippets;

import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Validating;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The Widget's admission policy (docs/guide/admission.md, {@code namespaceSelector}), registered only for the
 * namespaces labelled {@value #ENFORCED} (its {@code namespaceSelector}); Widgets elsewhere are
 * never sent to it. A Widget needs a message, and 1 to 10 replicas when it names a number.
 */
@ApplicationScoped
public class WidgetPolicy {

    /** The namespace label that puts a namespace's Widgets under the policy. */
    public static final String ENFORCED = "widgets.example.com/policy=enforced";

    @Validating(namespaceSelector = ENFORCED)
    public void checkSpec(AdmissionRequest<Widget> request) throws AdmissionDenied {
        Widget.Spec spec = request.object().getSpec();
        if (spec == null || spec.message == null || spec.message.isBlank()) {
            throw new AdmissionDenied(422, "spec.message is required");
        }
        if (spec.replicas != null && (spec.replicas < 1 || spec.replicas > 10)) {
            throw new AdmissionDenied(422, "spec.replicas must be 1 to 10, got " + spec.replicas);
        }
    }
}
