package dev.mooring.engine.handler;

import dev.mooring.engine.queue.Priority;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;

/**
 * The queue priority of an informer's event (controller-runtime's priority queue rule): an
 * object of the initial list, and an update whose resourceVersion did not change (a resync, or
 * an object a relist found unchanged), are {@link Priority#LOW}; every change a watch or a relist
 * reports is {@link Priority#NORMAL}.
 */
final class EventPriority {

    private EventPriority() {
    }

    static Priority ofAdd(boolean inInitialList) {
        return inInitialList ? Priority.LOW : Priority.NORMAL;
    }

    static Priority ofUpdate(KubernetesObject oldObject, KubernetesObject newObject) {
        return oldObject == newObject || Objects.equals(version(oldObject), version(newObject)) && version(newObject) != null
                ? Priority.LOW : Priority.NORMAL;
    }

    private static String version(KubernetesObject object) {
        return object.getMetadata() == null ? null : object.getMetadata().getResourceVersion();
    }
}
