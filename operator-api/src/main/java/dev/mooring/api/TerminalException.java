package dev.mooring.api;

/**
 * A reconcile failure that retrying cannot fix, such as an invalid specification.
 *
 * <p>Throwing it from {@link Reconciler#reconcile} ends the pass without a retry: the key's
 * failure history is reset, the failure is logged and counted separately from ordinary errors.
 * A later change of the object (or the periodic resync) reconciles the key again.
 */
public class TerminalException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A terminal failure with a message that names what is wrong. */
    public TerminalException(String message) {
        super(message);
    }

    /** A terminal failure caused by {@code cause}. */
    public TerminalException(String message, Throwable cause) {
        super(message, cause);
    }
}
