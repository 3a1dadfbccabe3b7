package dev.mooring.engine.model;

/** Lifecycle of one controller. */
public enum ControllerState {
    /** Resolving its kind and listing; not yet reconciling. */
    STARTING,
    /** Initial list cached; workers reconciling. */
    READY,
    /** Stopped by a fatal error; see the failure. */
    FAILED,
    /** Stopped on request. */
    STOPPED
}
