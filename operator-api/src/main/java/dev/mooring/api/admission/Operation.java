package dev.mooring.api.admission;

/** The operation an admission request is about, as the API server names it. */
public enum Operation {
    /** An object is created; the request has the new object and no old one. */
    CREATE,
    /** An object (or its subresource) is replaced or patched; the request has both snapshots. */
    UPDATE,
    /** An object is deleted; the request has the old object and no new one. */
    DELETE,
    /**
     * A connect subresource is opened ({@code pods/exec}, {@code pods/portforward}, ...); the
     * request's object is the connect options. Validators only, and only with a subresource.
     */
    CONNECT
}
