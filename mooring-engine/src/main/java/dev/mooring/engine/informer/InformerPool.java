package dev.mooring.engine.informer;

import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.ResourceType;
import dev.mooring.engine.kube.Selectors;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The informers of one deployment, shared: controllers that watch the same kind in the same
 * scope with the same label selector and resync period get the same informer (one list, one
 * watch, one cache); a kind watched as metadata only is a separate informer from the same kind
 * watched whole. Different scopes stay separate. All informers use the deployment's one
 * connection.
 */
public final class InformerPool {

    /** {@code shapedBy}: the controller and transform of an informer that is not shared, or null. */
    private record Key(ResourceType<?> type, String namespace, Selectors selectors, Duration resync, String shapedBy) {
    }

    private final KubeHttp requests;
    private final KubeHttp watches;
    private final Duration backoffCap;
    private final Map<Key, Informer<?>> informers = new LinkedHashMap<>();
    private final Map<Informer<?>, Duration> resyncs = new LinkedHashMap<>();
    /** The loop and resync of each started informer. */
    private final Map<Informer<?>, List<Future<?>>> tasks = new LinkedHashMap<>();
    private boolean stopped;

    private final java.util.function.Consumer<Informer<?>> created;

    public InformerPool(KubeHttp requests, KubeHttp watches, Duration backoffCap) {
        this(requests, watches, backoffCap, informer -> { });
    }

    /** @param created told about every informer the pool creates */
    public InformerPool(KubeHttp requests, KubeHttp watches, Duration backoffCap, java.util.function.Consumer<Informer<?>> created) {
        this.requests = requests;
        this.watches = watches;
        this.backoffCap = backoffCap;
        this.created = created;
    }

    /** The informers held now: created so far, less those released. */
    public synchronized List<Informer<?>> informers() {
        return List.copyOf(informers.values());
    }

    /** The informer for this kind, scope, selectors (null for none) and resync period, created on first use (not started). */
    public <T extends KubernetesObject> Informer<T> acquire(ResourceType<T> type, String namespace,
            Selectors selectors, Duration resync) {
        return acquire(type, namespace, selectors, resync, null, null);
    }

    /**
     * As {@link #acquire(ResourceType, String, Selectors, Duration)}; with a {@code transform} (not
     * null), the informer is the controller's own: shared only by that controller's sources of the
     * same kind and scope, so that no other controller sees its shaped objects.
     */
    public synchronized <T extends KubernetesObject> Informer<T> acquire(ResourceType<T> type, String namespace,
            Selectors selectors, Duration resync, String controller, dev.mooring.engine.model.ObjectTransform transform) {
        return shared(type, namespace, selectors, resync, transform == null ? null : controller + " " + transform.description(),
                transform);
    }

    @SuppressWarnings("unchecked")
    private <T extends KubernetesObject> Informer<T> shared(ResourceType<T> type, String namespace, Selectors selectors,
            Duration resync, String shapedBy, dev.mooring.engine.model.ObjectTransform transform) {
        String scope = type.namespaced() ? namespace : null;
        Selectors limits = selectors == null ? Selectors.NONE : selectors;
        Key key = new Key(type, scope, limits, resync, shapedBy);
        return (Informer<T>) informers.computeIfAbsent(key, k -> {
            Informer<T> informer = new Informer<>(requests, watches, type, scope, limits.labels(), limits.fields(), backoffCap,
                    transform);
            resyncs.put(informer, resync);
            created.accept(informer);
            return informer;
        });
    }

    /**
     * An informer of one controller alone, whatever else watches the same: for a member of a
     * namespace set, which the controller may {@link #release} while others keep theirs.
     */
    public synchronized <T extends KubernetesObject> Informer<T> acquireOwn(ResourceType<T> type, String namespace,
            Selectors selectors, Duration resync, String controller, dev.mooring.engine.model.ObjectTransform transform) {
        return shared(type, namespace, selectors, resync, "own " + controller + (transform == null ? "" : " " + transform.description()),
                transform);
    }

    /** Stop an informer and forget it: a later acquire of the same creates a new one. Idempotent. */
    public void release(Informer<?> informer) {
        List<Future<?>> running;
        synchronized (this) {
            informers.values().remove(informer);
            resyncs.remove(informer);
            running = tasks.remove(informer);
        }
        informer.stop();
        if (running != null) {
            running.forEach(task -> task.cancel(true));
        }
    }

    /**
     * Start the informer if it is not running yet: its loop on the executor, and its periodic
     * resync on the scheduler.
     */
    public synchronized void start(Informer<?> informer, ExecutorService executor, ScheduledExecutorService scheduler) {
        Objects.requireNonNull(informer);
        if (stopped || !resyncs.containsKey(informer) || tasks.containsKey(informer)) {
            return;
        }
        long period = resyncs.get(informer).toNanos();
        ScheduledFuture<?> resync = scheduler.scheduleAtFixedRate(informer::resync, period, period, TimeUnit.NANOSECONDS);
        tasks.put(informer, List.of(executor.submit(informer::run), resync));
    }

    /** Whether {@link #start} has started {@code informer} (its loop runs, or ran). */
    public synchronized boolean started(Informer<?> informer) {
        return tasks.containsKey(informer);
    }

        /** Distinct informers (watch subscriptions) held now. */
    public synchronized int count() {
        return informers.size();
    }

    /** Relists (lists after the initial one, caused by expired watch history) of all informers. */
    public synchronized long relists() {
        return informers.values().stream().mapToLong(informer -> Math.max(0, informer.listCount() - 1 - informer.listsAskedFor())).sum();
    }

    /** Stop every informer and its resync; idempotent. */
    public void stopAll() {
        List<Informer<?>> all;
        List<Future<?>> running;
        synchronized (this) {
            stopped = true;
            all = new ArrayList<>(informers.values());
            running = tasks.values().stream().flatMap(List::stream).toList();
        }
        all.forEach(Informer::stop);
        running.forEach(task -> task.cancel(true));
    }
}
