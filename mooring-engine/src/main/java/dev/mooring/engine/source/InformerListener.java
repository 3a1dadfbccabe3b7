package dev.mooring.engine.source;

/** Receives the changes an {@code Informer} observes, in order, on the informer's thread. */
public interface InformerListener<T> {

    /**
     * A new object. {@code inInitialList} is true for the objects of the informer's first list:
     * what was there before it started, not a change it saw (controller-runtime's
     * {@code CreateEvent.IsInInitialList}).
     */
    void onAdd(T object, boolean inInitialList);

    /** {@code oldObject} and {@code newObject} have the same resourceVersion on a resync or relist. */
    void onUpdate(T oldObject, T newObject);

    void onDelete(T object);
}
