package dev.mooring.engine.handler;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.predicate.UpdatePredicate;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.common.KubernetesObject;
import java.util.function.Consumer;

/**
 * Enqueues the key of the changed object itself (controller-runtime's
 * {@code EnqueueRequestForObject}): for the controller's primary kind. Updates pass through a
 * predicate first.
 */
public final class EnqueueObject<T extends KubernetesObject> implements InformerListener<T> {

    private final Consumer<ObjectKey> queue;
    private final UpdatePredicate updates;

    public EnqueueObject(Consumer<ObjectKey> queue, UpdatePredicate updates) {
        this.queue = queue;
        this.updates = updates;
    }

    @Override
    public void onAdd(T object) {
        queue.accept(ObjectKey.of(object));
    }

    @Override
    public void onUpdate(T oldObject, T newObject) {
        if (updates.test(oldObject, newObject)) {
            queue.accept(ObjectKey.of(newObject));
        }
    }

    @Override
    public void onDelete(T object) {
        queue.accept(ObjectKey.of(object));
    }
}
