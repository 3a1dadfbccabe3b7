package dev.mooring.api;

/** The type of a Kubernetes Event. */
public enum EventType {
    /** Something expected happened (a child was created, the object became ready). */
    NORMAL,
    /** Something went wrong or needs attention. */
    WARNING
}
