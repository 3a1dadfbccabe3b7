package dev.mooring.engine.informer;

import com.google.gson.JsonObject;
import dev.mooring.api.ObjectKey;
import dev.mooring.api.client.KubernetesException;
import dev.mooring.engine.kube.Failures;
import dev.mooring.engine.kube.KubeHttp;
import dev.mooring.engine.kube.ResourceType;
import dev.mooring.engine.source.EventSource;
import dev.mooring.engine.source.InformerListener;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.Watch;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps a local cache of one kind in one scope in step with the API server, and reports every
 * change to a listener.
 *
 * <p>{@link #run()} is the informer's loop; it runs on a managed thread until {@link #stop()}:
 * a list (see {@link #relist()}), then a watch from the list's resourceVersion with bookmarks. A watch that
 * ends normally is resumed from the last seen resourceVersion; a 410 Gone (history compacted)
 * leads to a relist, which reports what changed while disconnected (adds, updates, deletes); a
 * transport failure, or a watch that stays silent longer than the watch client's read timeout while
 * the API server does not answer a one-object list either, is retried after a delay of 250 ms
 * doubling to 4 s (or the configured cap, when shorter), jittered; see {@link ApiContact}. Authorization failures,
 * a kind that is not served and other client errors (401, 403, 404, any 4xx but 408, 409, 410
 * and 429) are fatal: {@link #run()} throws them.
 *
 * <p>Mooring writes its own informer instead of using client-java's reflector because that one
 * retries authorization failures forever without reporting them and can stop watching silently.
 */
public final class Informer<T extends KubernetesObject> implements EventSource<T> {

    private static final Logger LOG = Logger.getLogger(Informer.class.getName());
    private static final int PAGE_SIZE = 500;
    private static final Duration MIN_WATCH_TIMEOUT = Duration.ofMinutes(5);

    private final KubeHttp lists;
    private final KubeHttp watches;
    private final ResourceType<T> type;
    private final InformerScope scope;
    private final List<java.util.function.Consumer<Throwable>> failureListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<Runnable> relistListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ApiContact contact;
    /** The controller's transform of what is cached, or null: objects cached as received. */
    private final dev.mooring.engine.model.ObjectTransform transform;
    /** What the cache keeps smaller (empty collections, timestamps); this informer's thread only. */
    private final CacheCompaction compaction = new CacheCompaction();

    private final InformerStore<T> store = new InformerStore<>();
    private final CountDownLatch synced = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopped;
    private volatile Watch<JsonObject> current;
    private volatile Throwable failure;
    private volatile boolean initialListDone;
    private final java.util.concurrent.atomic.AtomicLong listsDone = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong quietWatches = new java.util.concurrent.atomic.AtomicLong();
    private String resourceVersion;
    /** The version applied last, for read-your-writes. */
    private final SeenVersion seen = new SeenVersion();
    /** Relists asked for by {@link #relistNow} and the last one a completed list served (a barrier at a hand-over). */
    private final java.util.concurrent.atomic.AtomicLong relistsAsked = new java.util.concurrent.atomic.AtomicLong();
    private volatile long relistsServed;
    private final java.util.concurrent.atomic.AtomicLong listsAskedFor = new java.util.concurrent.atomic.AtomicLong();
    /** The label selector parsed, or null for none. */
    private final io.kubernetes.client.openapi.models.V1LabelSelector labels;


    /**
     * @param namespace the namespace to watch, or null for all namespaces (or a cluster-scoped kind)
     * @param labelSelector a label selector, or null for none
     */
    public Informer(KubeHttp lists, KubeHttp watches, ResourceType<T> type, String namespace, String labelSelector,
            Duration backoffCap) {
        this(lists, watches, type, namespace, labelSelector, null, backoffCap);
    }

    /**
     * An informer of the objects that also match a field selector: {@code metadata.name=NAME}
     * watches one object with RBAC limited to that name ({@code resourceNames} authorize a list
     * and watch that select one name).
     *
     * @param fieldSelector a field selector, or null for none
     */
    public Informer(KubeHttp lists, KubeHttp watches, ResourceType<T> type, String namespace, String labelSelector,
            String fieldSelector, Duration backoffCap) {
        this(lists, watches, type, namespace, labelSelector, fieldSelector, backoffCap, null);
    }

    /**
     * An informer whose cache keeps what {@code transform} makes of each object received (see
     * {@link dev.mooring.api.CacheTransform}); null keeps objects as received. A transform that
     * throws, returns null or another class, or changes an object's name, namespace, uid or
     * resourceVersion fails the informer, naming the transform and the object.
     */
    public Informer(KubeHttp lists, KubeHttp watches, ResourceType<T> type, String namespace, String labelSelector,
            String fieldSelector, Duration backoffCap, dev.mooring.engine.model.ObjectTransform transform) {
        this.transform = transform;
        this.lists = lists;
        this.watches = watches;
        this.type = type;
        this.scope = new InformerScope(type, namespace, labelSelector, fieldSelector);
        this.contact = new ApiContact(this::describe, backoffCap);
        this.labels = scope.labelSelector() == null ? null : dev.mooring.engine.kube.LabelSelectors.parse(scope.labelSelector());
    }

    /** Subscribe to changes; subscribe before {@link #run()} to see the initial objects. */
    @Override
    public void addListener(InformerListener<T> listener) {
        store.addListener(listener);
    }

    /** Be told when the informer fails fatally. */
    @Override
    public void onFailure(java.util.function.Consumer<Throwable> listener) {
        failureListeners.add(listener);
    }

    /** The kind this informer watches. */
    @Override
    public ResourceType<T> type() {
        return type;
    }

    /** The watched namespace, or null for all namespaces or a cluster-scoped kind. */
    @Override
    public String namespace() {
        return scope.namespace();
    }

    /**
     * The loop: list, watch, relist when needed, until stopped. A fatal error ends it and is
     * reported to the failure listeners and by {@link #failure()}.
     */
    public void run() {
        boolean needList = true;
        try {
            while (!stopped) {
                try {
                    if (needList || relistsAsked.get() > relistsServed) {
                        relist();
                        needList = false;
                    }
                    needList = watchOnce();
                } catch (KubernetesException e) {
                    if (stopped) {
                        break;
                    }
                    if (Failures.isFatal(e)) {
                        throw e;
                    }
                    if (e.code() == 410) {
                        needList = true;
                        continue;
                    }
                    sleep(contact.failed(e));
                }
            }
        } catch (RuntimeException | Error e) {
            failure = e;
            LOG.log(Level.SEVERE, "The informer of " + describe() + " failed: " + e.getMessage(), e);
            failureListeners.forEach(listener -> listener.accept(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            finished.countDown();
            synced.countDown(); // release waiters; they check hasSynced()/failure()
        }
    }

    /** Stop the loop; closes the open watch so that a blocked read returns at once. */
    public void stop() {
        stopped = true;
        closeWatch("");
    }

    /** Closes the open watch, if any, so that a blocked read returns at once. */
    private void closeWatch(String why) {
        Watch<JsonObject> watch = current;
        if (watch != null) {
            try {
                watch.close();
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.FINE, "Closing the watch of " + describe() + why + " failed", e);
            }
        }
    }

    /** Wait until the initial list is cached, the informer failed, or it stopped. */
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        return synced.await(timeout.toNanos(), TimeUnit.NANOSECONDS) && hasSynced();
    }

    /** Whether the initial list has been cached (stays true after later relists start). */
    @Override
    public boolean hasSynced() {
        return synced.getCount() == 0 && failure == null && initialListDone;
    }

    /** The fatal failure that ended the informer, if any. */
    @Override
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** A copy of the cached object with this key. */
    @Override
    public Optional<T> get(ObjectKey key) {
        return store.get(key);
    }

    @Override
    public Optional<T> cached(ObjectKey key) {
        return store.cached(key);
    }

    /** Copies of every cached object. */
    @Override
    public List<T> list() {
        return store.list();
    }

    @Override
    public void addIndex(String name, String declaredBy, java.util.function.Function<T, java.util.Collection<String>> values) {
        store.addIndex(name, declaredBy, values);
    }

    @Override
    public List<T> indexed(String name, String value) {
        return store.indexed(name, value);
    }

    /** Re-deliver every cached object as an update to itself (the periodic resync). */
    public void resync() {
        if (hasSynced()) {
            store.resync();
        }
    }

    /** Be told after each complete relist (each list after the initial one), on the informer's thread; must be fast. */
    public void onRelist(Runnable listener) {
        relistListeners.add(listener);
    }

    /** Complete lists so far: 1 after the initial list, one more per relist (after 410 Gone, or {@link #relistNow}). */
    public long listCount() {
        return listsDone.get();
    }

    /** Complete lists that served a {@link #relistNow} (a hand-over's barrier), not an expired history. */
    public long listsAskedFor() {
        return listsAskedFor.get();
    }

    /** Number of cached objects. */
    public int size() {
        return store.size();
    }

    /** A description for logs: kind, scope and selectors. */
    @Override
    public String describe() {
        return scope.describe() + (transform == null ? "" : " shaped by " + transform.description());
    }

    /**
     * Lists the whole scope. The initial list asks for resourceVersion 0: the API server answers
     * from its watch cache (whole, in one response, unless it pages its cache); a relist (after the
     * watch history expired, or asked for by {@link #relistNow}) reads consistently, in pages of {@value #PAGE_SIZE}, as does a server
     * without a watch cache, which honours the limit. Either way each answer is decoded as a stream,
     * object by object into the new content ({@link KubeHttp#streamList}): the first sync holds the
     * cache being filled, not the answer as text and as a tree beside it. The initial list goes
     * straight into the store and is announced once complete; a relist is collected first and then
     * compared with the store (see {@link InformerStore#replace}).
     */
    private void relist() {
        boolean initial = !initialListDone;
        long serving = relistsAsked.get();
        Map<ObjectKey, T> listed = initial ? null : new HashMap<>();
        if (initial) {
            store.clearUnannounced(); // an earlier attempt may have failed part-way
        }
        String continueToken = null;
        String listVersion;
        do {
            Map<String, String> query = scope.query();
            query.put("limit", Integer.toString(PAGE_SIZE));
            if (continueToken != null) {
                query.put("continue", continueToken);
            } else if (!initialListDone && serving == 0) {
                // from the watch cache, unless a consistent list was asked for (relistNow)
                query.put("resourceVersion", "0");
            }
            JsonObject metadata = lists.streamList(scope.path(), query, type.listAccept(), item -> {
                T object = compaction.compact(shape(CachedObjects.decode(item, type)));
                if (initial) {
                    store.fill(object);
                } else {
                    listed.put(ObjectKey.of(object), object);
                }
            });
            contact.answered();
            listVersion = CachedObjects.string(metadata, "resourceVersion");
            continueToken = CachedObjects.string(metadata, "continue");
        } while (continueToken != null && !continueToken.isEmpty());

        if (initial) {
            store.announceInitial();
        } else {
            store.replace(listed);
        }
        resourceVersion = listVersion;
        seen.applied(listVersion);
        listsDone.incrementAndGet();
        if (initial) {
            initialListDone = true;
            int count = store.size();
            LOG.info(() -> "Initial list of " + describe() + " complete: " + count + " objects");
        } else {
            relistListeners.forEach(Runnable::run);
        }
        synced.countDown();
        if (!initial && serving > relistsServed) {
            listsAskedFor.incrementAndGet();
        }
        served(serving);
    }

    private void served(long asked) {
        synchronized (relistsAsked) {
            relistsServed = Math.max(relistsServed, asked);
            relistsAsked.notifyAll();
        }
    }

    /** One watch request; returns true when a relist is needed. */
    private boolean watchOnce() {
        Map<String, String> query = scope.query();
        query.put("resourceVersion", resourceVersion);
        query.put("allowWatchBookmarks", "true");
        long timeout = MIN_WATCH_TIMEOUT.toSeconds();
        query.put("timeoutSeconds", Long.toString(timeout + ThreadLocalRandom.current().nextLong(timeout)));
        boolean established = false;
        try (Watch<JsonObject> watch = watches.watch(scope.path(), query, type.watchAccept())) {
            current = watch;
            if (stopped) {
                return false;
            }
            if (relistsAsked.get() > relistsServed) {
                return true; // asked while the watch was opened
            }
            contact.answered();
            established = true;
            for (Watch.Response<JsonObject> event : watch) {
                contact.heard();
                if (handle(event) || relistsAsked.get() > relistsServed) {
                    return true;
                }
            }
            return relistsAsked.get() > relistsServed;
        } catch (IOException e) {
            throw new KubernetesException(0, "", "Closing the watch of " + describe() + " failed: " + e, e);
        } catch (RuntimeException e) {
            if (e instanceof KubernetesException kubernetes) {
                throw kubernetes;
            }
            if (!stopped && relistsAsked.get() > relistsServed) {
                return true; // closed by relistNow
            }
            if (established && !stopped && Failures.rootCause(e) instanceof java.net.SocketTimeoutException && serverAnswers()) {
                // A quiet kind: an API server sends bookmarks only once its watch cache has seen a change of the
                // kind (or etcd's progress notification, minutes apart), so an idle watch of a kind nobody changes
                // stays silent. The server answered a request just now: resume the watch from where it was.
                LOG.fine(() -> "The watch of " + describe() + " was silent for the idle timeout while the API server answers;"
                        + " resuming it from resourceVersion " + resourceVersion);
                return false;
            }
            // client-java reports a broken or timed-out stream as a RuntimeException wrapping an IOException
            throw new KubernetesException(0, "", "The watch of " + describe() + " broke: " + Failures.rootCause(e), e);
        } finally {
            current = null;
        }
    }

    /** Applies one watch event; returns true when the history expired and a relist is needed. */
    private boolean handle(Watch.Response<JsonObject> event) {
        switch (event.type) {
            case "ADDED", "MODIFIED" -> {
                T object = compaction.compact(shape(CachedObjects.decode(event.object, type)));
                store.put(object);
                resourceVersion = object.getMetadata().getResourceVersion();
                seen.applied(resourceVersion);
            }
            case "DELETED" -> {
                T object = compaction.compact(shape(CachedObjects.decode(event.object, type)));
                store.remove(object);
                resourceVersion = object.getMetadata().getResourceVersion();
                seen.applied(resourceVersion);
            }
            case "BOOKMARK" -> {
                JsonObject metadata = event.object == null ? null : event.object.getAsJsonObject("metadata");
                String version = CachedObjects.string(metadata, "resourceVersion");
                if (version != null) {
                    resourceVersion = version;
                    seen.applied(version);
                }
            }
            case "ERROR" -> {
                int code = event.status == null || event.status.getCode() == null ? 0 : event.status.getCode();
                if (code == 410) {
                    LOG.info(() -> "Watch history of " + describe() + " expired (410 Gone); relisting");
                    return true;
                }
                String message = event.status == null ? "unknown error" : event.status.getMessage();
                throw new KubernetesException(code, event.status == null ? "" : Objects.toString(event.status.getReason(), ""),
                        "The watch of " + describe() + " reported an error: " + message, null);
            }
            default -> LOG.warning(() -> "Ignoring watch event of unknown type " + event.type + " for " + describe());
        }
        return false;
    }

    /** What the cache keeps of {@code received}: the transform's result, checked, or the object itself. */
    private T shape(T received) {
        if (transform == null) {
            return received;
        }
        String identity = identity(received);
        String where = "The cache transform " + transform.description() + " of " + describe();
        KubernetesObject shaped;
        try {
            shaped = transform.transform().apply(received);
        } catch (RuntimeException e) {
            throw new IllegalStateException(where + " failed on " + identity + ": " + e, e);
        }
        if (shaped == null || shaped.getClass() != received.getClass()) {
            throw new IllegalStateException(where + " returned " + (shaped == null ? "null" : "a " + shaped.getClass().getSimpleName())
                    + " for " + identity + "; it must return a " + received.getClass().getSimpleName());
        }
        if (!identity.equals(identity(shaped))) {
            throw new IllegalStateException(where + " changed the name, namespace, uid or resourceVersion of " + identity
                    + " (to " + identity(shaped) + "); a transform must keep them");
        }
        return type.modelClass().cast(shaped);
    }

    private static String identity(KubernetesObject object) {
        io.kubernetes.client.openapi.models.V1ObjectMeta metadata = object.getMetadata();
        return metadata == null ? "an object without metadata" : metadata.getNamespace() + "/" + metadata.getName() + " (uid "
                + metadata.getUid() + ", resourceVersion " + metadata.getResourceVersion() + ")";
    }

    /**
     * Whether the API server answers a list of at most one object of this informer's scope, read
     * with the request client and its timeout (not the watch's connection settings): the check
     * that a silent watch is quiet, not dead.
     */
    private boolean serverAnswers() {
        Map<String, String> query = scope.query();
        query.put("limit", "1");
        try {
            lists.get(scope.path(), query);
            quietWatches.incrementAndGet();
            return true;
        } catch (KubernetesException e) {
            LOG.log(Level.FINE, "The API server did not answer the check of the silent watch of " + describe(), e);
            return false;
        }
    }

    /** The resourceVersion this informer applied last (an event's, a bookmark's, a list's), -1 before the first or when not a number. */
    public long seenVersion() {
        return seen.get();
    }

    @Override
    public boolean awaitSeen(String namespace, long version, long deadlineNanos) throws InterruptedException {
        return seen.await(version, deadlineNanos);
    }

    /** The version applied, as the loop keeps it. */
    SeenVersion seen() {
        return seen;
    }

    @Override
    public boolean mayHold(Map<String, String> objectLabels) {
        return labels == null || dev.mooring.engine.kube.LabelSelectors.matches(labels, objectLabels);
    }

    /**
     * Lists again, consistently, and waits until that list is in the cache (a list begun after
     * this call): then the cache holds every change made before the call. The watch is closed so
     * that the loop lists at once; the cache stays readable meanwhile, and the differences reach
     * the listeners as a relist's do.
     *
     * @return false when no such list completed before {@code deadlineNanos} ({@link System#nanoTime()}),
     *     or the informer stopped or failed
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean relistNow(long deadlineNanos) throws InterruptedException {
        return awaitRelist(askRelist(), deadlineNanos);
    }

    /**
     * Asks for a consistent list (see {@link #relistNow}) without waiting: asks made before the
     * loop begins its next list are all served by that one list.
     *
     * @return the ticket to wait for with {@link #awaitRelist}
     */
    public long askRelist() {
        long asked = relistsAsked.incrementAndGet();
        closeWatch(" for a relist");
        return asked;
    }

    /**
     * Waits until a list that serves {@code ticket} ({@link #askRelist}) is in the cache.
     *
     * @return false when none completed before {@code deadlineNanos}, or the informer stopped or failed
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitRelist(long ticket, long deadlineNanos) throws InterruptedException {
        synchronized (relistsAsked) {
            for (long left = deadlineNanos - System.nanoTime(); relistsServed < ticket; left = deadlineNanos - System.nanoTime()) {
                if (left <= 0 || stopped || failure != null || finished.getCount() == 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(relistsAsked, Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)));
            }
            return true;
        }
    }

    /** Silent watches found quiet (the API server answered) and resumed without a reconnect. */
    public long quietWatches() {
        return quietWatches.get();
    }

    /** True while the last list or watch of this informer reached the API server, and it has not failed for good. */
    public boolean connected() {
        return failure == null && contact.connected();
    }

    /** When the API server last answered this informer (epoch milliseconds), 0 before the first answer. */
    public long lastContactMillis() {
        return contact.lastContactMillis();
    }

    /** Why the last list or watch failed, or null. */
    public String lastProblem() {
        return contact.lastProblem();
    }

    private void sleep(Duration d) throws InterruptedException {
        long end = System.nanoTime() + d.toNanos();
        while (!stopped && System.nanoTime() < end) {
            TimeUnit.NANOSECONDS.sleep(Math.min(end - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(200)));
        }
    }
}
