package dev.mooring.it.install;

import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Validating;

/** Gives the generated manifests a webhook registration (for sprockets only, so no other test meets it). */
public class SprocketValidator {

    @Validating
    void check(AdmissionRequest<Sprocket> request) {
    }
}
