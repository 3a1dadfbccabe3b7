package dev.mooring.engine.handler;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.predicate.UpdatePredicate;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.common.KubernetesObject;
import dev.mooring.engine.queue.Priority;
import java.util.function.BiConsumer;

/**
 * Enqueues the key of the changed object itself (controller-runtime's
 * {@code EnqueueRequestForObject}): for the controller's primary kind. Updates pass through a
 * predicate first. Each key goes in with its event's priority: an object of the initial list and
 * a resync at low priority, watched changes at normal priority.
 */
public final class EnqueueObject<T extends KubernetesObject> implements InformerListener<T> {

    private final BiConsumer<ObjectKey, Priority> queue;
    private final UpdatePredicate updates;

    public EnqueueObject(BiConsumer<ObjectKey, Priority> queue, UpdatePredicate updates) {
        this.queue = queue;
        this.updates = updates;
    }

    @Override
    public void onAdd(T object, boolean inInitialList) {
        queue.accept(ObjectKey.of(object), EventPriority.ofAdd(inInitialList));
    }

    @Override
    public void onUpdate(T oldObject, T newObject) {
        if (updates.test(oldObject, newObject)) {
            queue.accept(ObjectKey.of(newObject), EventPriority.ofUpdate(oldObject, newObject));
        }
    }

    @Override
    public void onDelete(T object) {
        queue.accept(ObjectKey.of(object), Priority.NORMAL);
    }
}
