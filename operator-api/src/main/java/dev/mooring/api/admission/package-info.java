/**
 * Admission webhooks: {@link dev.mooring.api.admission.Validating} and
 * {@link dev.mooring.api.admission.Mutating} methods of CDI beans, called by the API server
 * with an {@link dev.mooring.api.admission.AdmissionRequest} over HTTPS on every replica.
 */
package dev.mooring.api.admission;
