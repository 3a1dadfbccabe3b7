package dev.mooring.api;

/**
 * The running controllers of this deployment, for code outside them. Inject it:
 * {@code @Inject Controllers controllers;}.
 */
public interface Controllers {

    /**
     * Ask controller {@code controllerName} to reconcile {@code key}, as an event would: repeated
     * requests coalesce, and a request while the key is being reconciled causes one more pass.
     * Use it for changes no watch sees (an external system, a timer of your own). Safe from any
     * thread, also before the controller has started; a no-op after it stopped.
     *
     * @throws IllegalArgumentException if no controller has that name
     */
    void enqueue(String controllerName, ObjectKey key);
}
