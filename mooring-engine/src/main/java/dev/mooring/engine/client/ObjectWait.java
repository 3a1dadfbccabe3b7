package dev.mooring.engine.client;

import dev.mooring.api.ObjectKey;
import dev.mooring.api.client.WaitCondition;
import dev.mooring.api.client.WaitTimeoutException;
import dev.mooring.api.client.WatchEvent;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.Map;

/** {@code ResourceClient.waitFor}: a watch of one object by name, its changes tested against named conditions. */
final class ObjectWait {

    private ObjectWait() {
    }

    static <R extends KubernetesObject> String await(KubeHttp http, ResourceType<R> type, String namespace, R object,
            Map<String, WaitCondition<? super R>> conditions, Duration timeout) {
        if (conditions == null || conditions.isEmpty()) {
            throw new IllegalArgumentException("A wait needs at least one condition");
        }
        String name = object.getMetadata() == null ? null : object.getMetadata().getName();
        if (name == null) {
            throw new IllegalArgumentException("A wait needs an object with metadata.name");
        }
        String what = type.kind() + " " + new ObjectKey(type.namespaced() ? namespace : null, name) + " to be " + String.join(" or ", conditions.keySet());
        type.itemPath(namespace, name); // checks the name and namespace before any request
        if (timeout.isNegative() || timeout.isZero()) {
            throw new WaitTimeoutException(what, timeout);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try (LiveWatch<R> watch = new LiveWatch<>(http, type, type.collectionPath(namespace),
                Map.of("fieldSelector", "metadata.name=" + name), object.getMetadata().getResourceVersion(), false, deadline)) {
            for (WatchEvent<R> event : watch) {
                if (event.type() == WatchEvent.Type.BOOKMARK) {
                    continue;
                }
                for (Map.Entry<String, WaitCondition<? super R>> condition : conditions.entrySet()) {
                    if (condition.getValue().holds(event.type(), event.object())) {
                        return condition.getKey();
                    }
                }
            }
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("Interrupted while waiting for " + what);
        }
        throw new WaitTimeoutException(what, timeout);
    }
}
