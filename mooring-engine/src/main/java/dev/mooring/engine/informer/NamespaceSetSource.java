package dev.mooring.engine.informer;

import dev.mooring.api.ObjectKey;
import dev.mooring.engine.kube.ResourceType;
import dev.mooring.engine.source.EventSource;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One kind's objects in a set of namespaces, as one event source over a source per namespace
 * (an informer each), for a controller that watches a set which may change while it runs.
 *
 * <p>What subscribes to it (listeners, failure listeners, indexes) subscribes to every member,
 * those added later included: a member is added before it starts, so its listeners see its
 * initial objects as adds. A removed member is no longer read and its later events are not
 * delivered; its objects are not delivered as deletes (they still exist, the controller no
 * longer watches them). Reads route by the key's namespace; lists join the members'.
 */
public final class NamespaceSetSource<T extends KubernetesObject> implements EventSource<T> {

    private record Index<T>(String name, String declaredBy, Function<T, Collection<String>> values) {
    }

    private final ResourceType<T> type;
    private final String selectors;
    /** The members by namespace; replaced whole on a change, read without a lock. */
    private volatile Map<String, EventSource<T>> members = Map.of();
    private final List<InformerListener<T>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<Throwable>> failureListeners = new CopyOnWriteArrayList<>();
    private final List<Index<T>> indexes = new CopyOnWriteArrayList<>();

    /** @param selectors the members' selectors, for {@link #describe()} (null for none) */
    public NamespaceSetSource(ResourceType<T> type, dev.mooring.engine.kube.Selectors selectors) {
        this.type = Objects.requireNonNull(type, "type");
        this.selectors = selectors == null || selectors.isEmpty() ? "" : " with " + selectors.describe();
    }

    /**
     * Add the source of one namespace, before it starts: it gets every listener, failure listener
     * and index subscribed so far, and its events reach them only while it is a member.
     *
     * @throws IllegalArgumentException if the member watches no one namespace or one already in the set
     */
    public synchronized void add(EventSource<T> member) {
        String namespace = member.namespace();
        if (namespace == null || members.containsKey(namespace)) {
            throw new IllegalArgumentException("A member of " + describe() + " watches one namespace not yet in the set, not "
                    + member.describe());
        }
        for (Index<T> index : indexes) {
            member.addIndex(index.name(), index.declaredBy(), index.values());
        }
        member.addListener(new MemberListener(member));
        member.onFailure(this::failed);
        Map<String, EventSource<T>> changed = new LinkedHashMap<>(members);
        changed.put(namespace, member);
        members = Map.copyOf(changed);
    }

    /** Remove the source of {@code namespace}; its events are dropped from now on. Returns it, to be stopped. */
    public synchronized Optional<EventSource<T>> remove(String namespace) {
        Map<String, EventSource<T>> changed = new LinkedHashMap<>(members);
        EventSource<T> removed = changed.remove(namespace);
        members = Map.copyOf(changed);
        return Optional.ofNullable(removed);
    }

    /** The namespaces of the members now. */
    public Set<String> namespaces() {
        return Set.copyOf(members.keySet());
    }

    @Override
    public ResourceType<T> type() {
        return type;
    }

    /** Null: not limited to one namespace. */
    @Override
    public String namespace() {
        return null;
    }

    @Override
    public boolean holds(String namespace) {
        return members.containsKey(namespace);
    }

    @Override
    public synchronized void addListener(InformerListener<T> listener) {
        listeners.add(listener);
    }

    @Override
    public void onFailure(Consumer<Throwable> listener) {
        failureListeners.add(listener);
    }

    private void failed(Throwable cause) {
        failureListeners.forEach(listener -> listener.accept(cause));
    }

    @Override
    public Optional<T> get(ObjectKey key) {
        EventSource<T> member = members.get(key.namespace());
        return member == null ? Optional.empty() : member.get(key);
    }

    @Override
    public Optional<T> cached(ObjectKey key) {
        EventSource<T> member = members.get(key.namespace());
        return member == null ? Optional.empty() : member.cached(key);
    }

    @Override
    public List<T> list() {
        List<T> all = new ArrayList<>();
        members.values().forEach(member -> all.addAll(member.list()));
        return all;
    }

    @Override
    public synchronized void addIndex(String name, String declaredBy, Function<T, Collection<String>> values) {
        members.values().forEach(member -> member.addIndex(name, declaredBy, values));
        if (indexes.stream().noneMatch(index -> index.name().equals(name))) {
            indexes.add(new Index<>(name, declaredBy, values));
        }
    }

    @Override
    public List<T> indexed(String name, String value) {
        if (!dev.mooring.api.Cache.CONTROLLER_INDEX.equals(name) && indexes.stream().noneMatch(index -> index.name().equals(name))) {
            throw new IllegalArgumentException("No index '" + name + "' on " + describe() + "; its indexes: "
                    + indexes.stream().map(Index::name).toList());
        }
        List<T> all = new ArrayList<>();
        members.values().forEach(member -> all.addAll(member.indexed(name, value)));
        return all;
    }

    @Override
    public boolean awaitSeen(String namespace, long version, long deadlineNanos) throws InterruptedException {
        if (namespace != null) {
            EventSource<T> member = members.get(namespace);
            return member == null || member.awaitSeen(namespace, version, deadlineNanos);
        }
        boolean all = true;
        for (EventSource<T> member : members.values()) {
            all &= member.awaitSeen(member.namespace(), version, deadlineNanos);
        }
        return all;
    }

    @Override
    public boolean mayHold(Map<String, String> labels) {
        return members.values().stream().allMatch(member -> member.mayHold(labels));
    }

    /** True when every member has synced (also with no member). */
    @Override
    public boolean hasSynced() {
        return members.values().stream().allMatch(EventSource::hasSynced);
    }

    @Override
    public Optional<Throwable> failure() {
        return members.values().stream().map(EventSource::failure).flatMap(Optional::stream).findFirst();
    }

    @Override
    public String describe() {
        return type.kind() + " in namespaces " + new java.util.TreeSet<>(members.keySet()) + selectors
                + (type.isMetadataOnly() ? " (metadata only)" : "");
    }

    /** Delivers a member's events while it is one. */
    private final class MemberListener implements InformerListener<T> {
        private final EventSource<T> member;

        MemberListener(EventSource<T> member) {
            this.member = member;
        }

        private boolean current() {
            return members.get(member.namespace()) == member;
        }

        @Override
        public void onAdd(T object, boolean inInitialList) {
            if (current()) {
                listeners.forEach(listener -> listener.onAdd(object, inInitialList));
            }
        }

        @Override
        public void onUpdate(T oldObject, T newObject) {
            if (current()) {
                listeners.forEach(listener -> listener.onUpdate(oldObject, newObject));
            }
        }

        @Override
        public void onDelete(T object) {
            if (current()) {
                listeners.forEach(listener -> listener.onDelete(object));
            }
        }
    }
}
