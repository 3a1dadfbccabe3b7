package dev.mooring.runtime;

import dev.mooring.engine.pass.Outcome;
import java.util.EnumSet;
import java.util.Set;

/**
 * The counters a finished pass adds one to, besides {@code controller_runtime_reconcile_total} of
 * its result. A pass cancelled by the reconcile timeout is an error too, as in controller-runtime
 * (where the reconciler returns the context's deadline error): an alert on
 * {@code controller_runtime_reconcile_errors_total} sees it, and
 * {@code controller_runtime_reconcile_timeouts_total} tells it apart.
 */
enum PassCounter {
    ERRORS, TERMINAL, TIMEOUTS;

    static Set<PassCounter> of(Outcome.Kind outcome) {
        return switch (outcome) {
            case SUCCESS -> EnumSet.noneOf(PassCounter.class);
            case ERROR -> EnumSet.of(ERRORS);
            case CANCELLED -> EnumSet.of(ERRORS, TIMEOUTS);
            case TERMINAL -> EnumSet.of(TERMINAL);
        };
    }
}
