package dev.mooring.engine.source;

/** Receives the changes an {@code Informer} observes, in order, on the informer's thread. */
public interface InformerListener<T> {

    void onAdd(T object);

    /** {@code oldObject} and {@code newObject} have the same resourceVersion on a resync or relist. */
    void onUpdate(T oldObject, T newObject);

    void onDelete(T object);
}
