package dev.mooring.bench.mooring.admission;

import dev.mooring.api.admission.AdmissionRequest;
import dev.mooring.api.admission.Validating;
import dev.mooring.bench.mooring.Tick;
import jakarta.enterprise.context.ApplicationScoped;

/** Admits every Tick: the harness measures the admission round trip of a validator that does nothing. */
@ApplicationScoped
public class TickValidator {

    @Validating
    void admit(AdmissionRequest<Tick> request) {
        // nothing to check
    }
}
