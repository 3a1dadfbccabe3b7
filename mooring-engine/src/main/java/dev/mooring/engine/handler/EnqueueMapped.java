package dev.mooring.engine.handler;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.common.KubernetesObject;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;
import dev.mooring.engine.queue.Priority;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Enqueues the keys a {@link KeyMapping} gives for a watched object (controller-runtime's
 * {@code EnqueueRequestsFromMapFunc}): an update maps both the old and the new state, so that a
 * primary the object no longer concerns hears of it too. The whole mapping succeeds before any
 * key is enqueued; a mapping that throws is reported to {@code failures} (the controller fails)
 * and enqueues nothing. The keys go in with the event's priority (see {@link EnqueueObject}).
 */
public final class EnqueueMapped<D extends KubernetesObject> implements InformerListener<D> {

    private final KeyMapping<D> mapping;
    private final String description;
    private final String kind;
    private final BiConsumer<ObjectKey, Priority> queue;
    private final BooleanSupplier active;
    private final Consumer<Throwable> failures;

    /**
     * @param description names the mapping in the failure's message
     * @param kind the watched kind, for the failure's message
     * @param active false once the controller stopped or failed: nothing is mapped then
     */
    public EnqueueMapped(KeyMapping<D> mapping, String description, String kind, BiConsumer<ObjectKey, Priority> queue,
            BooleanSupplier active, Consumer<Throwable> failures) {
        this.mapping = mapping;
        this.description = description;
        this.kind = kind;
        this.queue = queue;
        this.active = active;
        this.failures = failures;
    }

    @Override
    public void onAdd(D object, boolean inInitialList) {
        enqueue(object, null, false, EventPriority.ofAdd(inInitialList));
    }

    @Override
    public void onUpdate(D oldObject, D newObject) {
        enqueue(newObject, oldObject, false, EventPriority.ofUpdate(oldObject, newObject));
    }

    @Override
    public void onDelete(D object) {
        enqueue(object, null, true, Priority.NORMAL);
    }

    private void enqueue(D object, D previous, boolean deleted, Priority priority) {
        if (!active.getAsBoolean()) {
            return;
        }
        Set<ObjectKey> keys = new LinkedHashSet<>();
        try {
            if (previous != null && previous != object) {
                keys.addAll(mapping.keys(Models.copy(previous), false));
            }
            keys.addAll(mapping.keys(Models.copy(object), deleted));
        } catch (Exception | Error e) {
            failures.accept(new IllegalStateException("Watch mapping of " + kind + " " + ObjectKey.of(object) + " by "
                    + description + " failed: " + e, e));
            return;
        }
        keys.forEach(key -> queue.accept(key, priority));
    }
}
