package dev.mooring.engine.admission;

/** A failed check of a request, carrying the dispatcher's answer to it. */
final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    final transient AdmissionDispatcher.Answer answer;

    Refused(AdmissionDispatcher.Answer answer) {
        super(null, null, false, false);
        this.answer = answer;
    }
}
