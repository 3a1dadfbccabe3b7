package dev.mooring.engine;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.Models;
import dev.mooring.engine.kube.ResourceType;
import dev.mooring.engine.source.EventSource;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * An event source whose changes a test makes: each call stores the object and tells the
 * listeners at once, on the test's thread, as an informer tells them on its own.
 */
public final class FakeSource<T extends KubernetesObject> implements EventSource<T> {

    private final ResourceType<T> type;
    private final Map<ObjectKey, T> store = new ConcurrentHashMap<>();
    private final List<InformerListener<T>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<Throwable>> failureListeners = new CopyOnWriteArrayList<>();
    private final String namespace;
    private volatile Throwable failure;
    /** The resourceVersion of the last change, as an informer's (read-your-writes). */
    private final dev.mooring.engine.informer.SeenVersion seen = new dev.mooring.engine.informer.SeenVersion();
    /** Which labels its selector takes (read-your-writes asks); any by default. */
    private volatile java.util.function.Predicate<Map<String, String>> selector = labels -> true;

    public FakeSource(ResourceType<T> type) {
        this(type, null);
    }

    /** A source of the objects of one namespace ({@code null}: of all). */
    public FakeSource(ResourceType<T> type, String namespace) {
        this.type = type;
        this.namespace = namespace;
    }

    /** The object appears (a watch's ADDED). */
    public void add(T object) {
        store.put(ObjectKey.of(object), object);
        seen.applied(object.getMetadata().getResourceVersion());
        listeners.forEach(listener -> listener.onAdd(object, false));
    }

    /** The object was there before the source started (its initial list). */
    public void listed(T object) {
        store.put(ObjectKey.of(object), object);
        listeners.forEach(listener -> listener.onAdd(object, true));
    }

    /** The object changes to {@code object} (same key); the stored one is its old state. */
    public void update(T object) {
        T old = store.put(ObjectKey.of(object), object);
        seen.applied(object.getMetadata().getResourceVersion());
        listeners.forEach(listener -> listener.onUpdate(old, object));
    }

    /** The object is gone. */
    public void delete(T object) {
        T old = store.remove(ObjectKey.of(object));
        seen.applied(object.getMetadata().getResourceVersion());
        listeners.forEach(listener -> listener.onDelete(old == null ? object : old));
    }

    /** The source's label selector takes only the labels {@code selector} accepts. */
    public FakeSource<T> selecting(java.util.function.Predicate<Map<String, String>> selector) {
        this.selector = selector;
        return this;
    }

    /** How many reads wait for a version now. */
    public int waiting() {
        return seen.waiting();
    }

    /** A bookmark: every change up to {@code resourceVersion} has been delivered. */
    public void bookmark(String resourceVersion) {
        seen.applied(resourceVersion);
    }

    @Override
    public boolean awaitSeen(String namespace, long version, long deadlineNanos) throws InterruptedException {
        return seen.await(version, deadlineNanos);
    }

    @Override
    public boolean mayHold(Map<String, String> labels) {
        return selector.test(labels);
    }

    /** A fatal failure, as an informer reports a 403. */
    public void failWith(Throwable cause) {
        failure = cause;
        failureListeners.forEach(listener -> listener.accept(cause));
    }

    @Override
    public ResourceType<T> type() {
        return type;
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public void addListener(InformerListener<T> listener) {
        listeners.add(listener);
    }

    @Override
    public void onFailure(Consumer<Throwable> listener) {
        failureListeners.add(listener);
    }

    @Override
    public Optional<T> get(ObjectKey key) {
        return cached(key).map(Models::copy);
    }

    @Override
    public Optional<T> cached(ObjectKey key) {
        return Optional.ofNullable(store.get(key));
    }

    @Override
    public List<T> list() {
        List<T> copies = new ArrayList<>();
        store.values().forEach(object -> copies.add(Models.copy(object)));
        return copies;
    }

    /** The fake's indexes are the real ones, kept by scanning at each read. */
    private final Map<String, java.util.function.Function<T, java.util.Collection<String>>> indexes = new ConcurrentHashMap<>(
            Map.of(dev.mooring.api.Cache.CONTROLLER_INDEX, object -> dev.mooring.api.OwnerReferences.controllerReference(object)
                    .map(reference -> List.of(reference.getUid())).orElse(List.of())));

    @Override
    public void addIndex(String name, String declaredBy, java.util.function.Function<T, java.util.Collection<String>> values) {
        indexes.putIfAbsent(name, values);
    }

    @Override
    public List<T> indexed(String name, String value) {
        var index = indexes.get(name);
        if (index == null) {
            throw new IllegalArgumentException("No index '" + name + "' on this fake source");
        }
        return list().stream().filter(object -> index.apply(object).contains(value)).toList();
    }

    @Override
    public boolean hasSynced() {
        return failure == null;
    }

    @Override
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public String describe() {
        return type.kind() + " (fake)";
    }
}
